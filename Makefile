# labelam -- mandatory label-based row access control as a table access method
#
# Build:   make && make install          (PGXS; see README.md)
# Demo:    make demo                     (sets up everything, throwaway cluster)
# Policy:  make policy                   (labelam's policy module in Debian's MLS policy)
# Tests:   make test                     (sets up everything, runs every suite)
# Bench:   make bench

MODULE_big = labelam
EXTENSION = labelam
EXTVERSION = 0.1

# every .c under src/, at any depth
SRCS = $(sort $(shell find src -name '*.c'))
OBJS = $(SRCS:.c=.o)
LABELAM_HDRS = $(shell find src -name '*.h')

# The extension script is assembled from one piece per subsystem.
SQL_PARTS = $(sort $(wildcard sql/*.sql))
DATA_built = labelam--$(EXTVERSION).sql

# Test lists (for "make installcheck" against a server you run yourself;
# "make test" drives the same files through scripts/run-tests.sh).
REGRESS = $(sort $(basename $(notdir $(wildcard test/sql/*.sql))))
REGRESS_OPTS = --inputdir=test --load-extension=labelam
ISOLATION = $(sort $(basename $(notdir $(wildcard test/specs/*.spec))))
ISOLATION_OPTS = --inputdir=test --load-extension=labelam

PG_CONFIG ?= /usr/lib/postgresql/15/bin/pg_config
PG_CPPFLAGS = -I$(srcdir)/src
PG_CFLAGS = -Wmissing-prototypes -Werror=implicit-function-declaration
# libsepol.a: Debian's shared libsepol lacks sepol_transition_sid & co.
SHLIB_LINK = -lselinux -l:libsepol.a -llz4

EXTRA_CLEAN = $(DATA_built)

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

$(OBJS): $(LABELAM_HDRS)

# make alone would keep objects built against another major (make
# PG_CONFIG=.../18/..., then make): the objects depend on a stamp naming the
# server they were built for, rewritten only when that changes.
LABELAM_BUILT_FOR := $(PG_CONFIG) $(VERSION)
.built-for: FORCE
	@echo '$(LABELAM_BUILT_FOR)' | cmp -s - $@ || echo '$(LABELAM_BUILT_FOR)' > $@
$(OBJS): .built-for
.PHONY: FORCE
FORCE:

$(DATA_built): $(SQL_PARTS)
	cat $(SQL_PARTS) > $@

.PHONY: deps demo test check-pg bench policy

deps:
	scripts/deps.sh

demo:
	scripts/demo.sh

# last line: the binary policy file, for labelam.policy_file
policy:
	@scripts/labelam-policy.sh

test:
	scripts/run-tests.sh

check-pg:
	scripts/check-pg.sh

bench:
	bench/run.sh
