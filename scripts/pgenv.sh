# scripts/pgenv.sh -- sourced by demo, tests and benchmarks: a private
# PostgreSQL installation with labelam in it, and throwaway clusters made
# from it.
#
# The installed server is copied (binaries) and linked (everything else) into
# a temporary tree, and labelam is installed there with DESTDIR, the way
# PostgreSQL's own "make check" builds tmp_install: the system installation
# and its clusters are never touched.  The server runs as an unprivileged OS
# user (it refuses root): $LABELAM_USER, created if needed.
#
# After "labelam_setup": $WORK (per-run directory, removed on exit),
# $PGBIN (binaries of the private installation), $RUN_USER, as_user CMD...
# After "cluster_start NAME [conf lines]": PGDATA/PGHOST/PGPORT point at it;
# every cluster started is stopped and removed on exit, error or Ctrl-C.

LABELAM_TOP=${LABELAM_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LABELAM_USER=${LABELAM_USER:-labelam_run}

die() { echo "labelam: $*" >&2; exit 2; }

# The PostgreSQL major under test, chosen here only: PG= (make test PG=17).
#   PG_CONFIG  the pg_config of that server (inside PG_ROOT if one is set)
#   PG_ROOT    a script printing a root directory (made and cached by it)
#              that the server's packages need: the calling script re-runs
#              itself chrooted there (pg_enter_root, below)
# 15 (default): Debian 12's postgresql-15, installed by scripts/deps.sh.
# 17: Debian 13's postgresql-17 in the root of scripts/pg17-root.sh.
# 18: Debian unstable's source of postgresql-18, built by scripts/pg-get.sh;
# 15-assert and 18-assert: the same sources built with --enable-cassert.
PG=${PG:-15}
PG_ROOT=
case "$PG" in
	15) PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config} ;;
	17) PG_CONFIG=/usr/lib/postgresql/17/bin/pg_config
		PG_ROOT=$LABELAM_TOP/scripts/pg17-root.sh ;;
	15-assert | 18 | 18-assert) PG_CONFIG=$("$LABELAM_TOP/scripts/pg-get.sh" "$PG") ||
		die "PG=$PG: scripts/pg-get.sh failed"
		# the tree it was built from: PostgreSQL's own suites (check-pg.sh)
		# and contrib/sepgsql's (check-sepgsql.sh)
		PG_SOURCE=${PG_SOURCE:-$("$LABELAM_TOP/scripts/pg-get.sh" --source "${PG%-assert}")} ||
			die "PG=$PG: scripts/pg-get.sh --source failed"
		export PG_SOURCE ;;
	*) die "PG=$PG: not a supported PostgreSQL major (15, 15-assert, 17, 18, 18-assert)" ;;
esac
export PG

# The calling script ($0 with its arguments) again, chrooted into PG_ROOT's
# root, unless it already runs there: the working tree (tracked and
# untracked files, no build products) is copied to the root's /tmp, since
# objects built for one major must not land in the checkout another major
# builds from; the work directories are made under the root's /tmp too.
# The environment (LABELAM_TESTS, REGRESS, TAP, ...) is passed through.
# Mounts live in a private mount namespace (scripts/chroot-run.sh) and end
# with the run; the copy is removed afterwards.
pg_enter_root() {
	local root src rel rc
	[ -n "$PG_ROOT" ] && [ "${LABELAM_IN_ROOT:-}" != "$PG" ] || return 0
	[ "$(id -u)" -eq 0 ] || die "PG=$PG runs chrooted into a Debian root: run as root"
	root=$("$PG_ROOT") || die "no root for PostgreSQL $PG ($PG_ROOT failed)"
	src=$(mktemp -d "$root/tmp/labelam-src.XXXXXX") || die "mktemp in $root/tmp failed"
	chmod 755 "$src"
	if git -C "$LABELAM_TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$LABELAM_TOP" && git ls-files -z -co --exclude-standard |
			tar --null -T - -cf - 2>/dev/null) | tar -C "$src" -xf -
	else
		tar -C "$LABELAM_TOP" --exclude-vcs --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
			--exclude='labelam--*.sql' -cf - . | tar -C "$src" -xf -
	fi || { rm -rf "$src"; die "could not copy $LABELAM_TOP into $root"; }
	rel=$(realpath --relative-to="$LABELAM_TOP" "$0")
	echo "labelam: PostgreSQL $PG: running $rel chrooted into $root (work directories under $root/tmp)" >&2
	# PG_SOURCE (check-pg.sh): a host directory, seen at the same path
	LABELAM_IN_ROOT=$PG LABELAM_TOP=${src#"$root"} PG_CONFIG=$PG_CONFIG \
		"$LABELAM_TOP/scripts/chroot-run.sh" "$root" ${PG_SOURCE:+--bind "$PG_SOURCE"} \
		/bin/bash "${src#"$root"}/$rel" "$@"
	rc=$?
	rm -rf "$src"
	[ $rc -ne 0 ] && echo "labelam: PostgreSQL $PG: the paths above are inside $root" >&2
	exit $rc
}

as_user() { "${AS_USER[@]}" env -i PATH="$PGBIN:/usr/bin:/bin" LANG=C.UTF-8 \
	HOME="$WORK" PGHOST="${PGHOST:-}" PGPORT="${PGPORT:-}" PGDATABASE="${PGDATABASE:-postgres}" \
	PGUSER="${PGUSER:-}" ${LABELAM_EXTRA_ENV:-} "$@"; }

_CLUSTERS=()
_labelam_cleanup() {
	local rc=$? d
	trap - EXIT INT TERM HUP
	for d in "${_CLUSTERS[@]}"; do
		if [ -f "$d/postmaster.pid" ]; then
			as_user "$PGBIN/pg_ctl" -D "$d" -m immediate -w -t 30 stop >/dev/null 2>&1 ||
				kill -9 "$(head -1 "$d/postmaster.pid")" 2>/dev/null
		fi
	done
	if [ -n "${WORK:-}" ] && [ -d "$WORK" ]; then
		if [ "${LABELAM_KEEP:-0}" = 1 ] || { [ $rc -ne 0 ] && [ "${LABELAM_KEEP_ON_FAIL:-1}" = 1 ]; }; then
			# keep logs and diffs, drop the bulky parts
			rm -rf "$WORK/install" "$WORK"/*/data "$WORK"/sock.* 2>/dev/null
			echo "labelam: logs kept in $WORK" >&2
		else
			rm -rf "$WORK"
		fi
	fi
	exit $rc
}

# deps, build, private installation, work directory
labelam_setup() {
	[ -z "$PG_ROOT" ] || [ "${LABELAM_IN_ROOT:-}" = "$PG" ] ||
		die "PostgreSQL $PG runs in a root: $(basename "$0") must call pg_enter_root first"
	# a root's packages are its script's job
	[ -n "$PG_ROOT" ] || "$LABELAM_TOP/scripts/deps.sh" "$@" || die "missing packages"
	WORK=$(mktemp -d /tmp/labelam.XXXXXX) || die "mktemp failed"
	chmod 755 "$WORK"
	trap _labelam_cleanup EXIT
	trap 'echo "labelam: interrupted" >&2; exit 130' INT TERM HUP

	if [ "$(id -u)" -eq 0 ]; then
		id "$LABELAM_USER" >/dev/null 2>&1 ||
			useradd --system --no-create-home --home-dir /nonexistent --shell /bin/sh "$LABELAM_USER" ||
			die "could not create OS user $LABELAM_USER"
		RUN_USER=$LABELAM_USER
		AS_USER=(runuser -u "$RUN_USER" --)
	else
		RUN_USER=$(id -un)
		AS_USER=()
	fi

	# (objects of another major are rebuilt: the Makefile's .built-for)
	make -s -C "$LABELAM_TOP" PG_CONFIG="$PG_CONFIG" >"$WORK/build.log" 2>&1 ||
		{ cat "$WORK/build.log" >&2; die "build failed"; }
	if grep -q 'warning:' "$WORK/build.log"; then
		grep 'warning:' "$WORK/build.log" >&2
	fi
	_labelam_private_install "$WORK/install"
	[ "$(id -u)" -eq 0 ] && chown -R "$RUN_USER" "$WORK"
	return 0
}

_labelam_private_install() {
	local dest=$1 bindir pkglibdir sharedir f
	bindir=$("$PG_CONFIG" --bindir)
	pkglibdir=$("$PG_CONFIG" --pkglibdir)
	sharedir=$("$PG_CONFIG" --sharedir)
	# binaries must be real files: the server finds lib/ and share/
	# relative to its own resolved path
	mkdir -p "$dest$bindir" "$dest$pkglibdir" "$dest$sharedir/extension"
	cp -p "$bindir"/* "$dest$bindir/"
	for f in "$pkglibdir"/*; do
		case "$(basename "$f")" in labelam*) continue ;; esac
		ln -s "$f" "$dest$pkglibdir/"
	done
	rm -f "$dest$pkglibdir/bitcode"
	if [ -d "$pkglibdir/bitcode" ]; then
		mkdir -p "$dest$pkglibdir/bitcode"
		for f in "$pkglibdir"/bitcode/*; do
			case "$(basename "$f")" in labelam*) continue ;; esac
			ln -s "$f" "$dest$pkglibdir/bitcode/"
		done
	fi
	for f in "$sharedir"/*; do
		[ "$(basename "$f")" = extension ] || ln -s "$f" "$dest$sharedir/"
	done
	for f in "$sharedir"/extension/*; do
		case "$(basename "$f")" in labelam*) continue ;; esac
		ln -s "$f" "$dest$sharedir/extension/"
	done
	make -s -C "$LABELAM_TOP" PG_CONFIG="$PG_CONFIG" DESTDIR="$dest" install >"$WORK/install.log" 2>&1 ||
		{ cat "$WORK/install.log" >&2; die "install into $dest failed"; }
	PGBIN=$dest$bindir
	PGXS_TESTDIR=$(dirname "$("$PG_CONFIG" --pgxs)")/../test
}

_port_free() {
	local p=$1
	[ -e "/tmp/.s.PGSQL.$p" ] || [ -e "/var/run/postgresql/.s.PGSQL.$p" ] && return 1
	ss -Hltn "sport = :$p" 2>/dev/null | grep -q . && return 1
	return 0
}

free_port() {
	local p=$((20000 + RANDOM % 30000)) i
	for i in $(seq 1 500); do
		_port_free "$p" && { echo "$p"; return 0; }
		p=$((p + 1))
	done
	die "no free port found"
}

# cluster_start NAME [postgresql.conf lines ...]: initdb + start; exports
# PGDATA, PGHOST, PGPORT.  Cluster directory: $WORK/NAME.
cluster_start() {
	local name=$1; shift
	local dir=$WORK/$name l
	mkdir -p "$dir"
	PGDATA=$dir/data
	PGHOST=$(mktemp -d "$WORK/sock.XXXX")
	PGPORT=$(free_port)
	[ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$dir" "$PGHOST"
	chmod 700 "$PGHOST"
	as_user "$PGBIN/initdb" -D "$PGDATA" --no-sync --locale=C --encoding=UTF8 \
		--auth=trust >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$PGHOST'"
		echo "port = $PGPORT"
		echo "fsync = off"
		echo "shared_preload_libraries = 'labelam'"
		echo "max_prepared_transactions = 2"
		for l in "$@"; do echo "$l"; done
	} >>"$PGDATA/postgresql.conf"
	_CLUSTERS+=("$PGDATA")
	as_user "$PGBIN/pg_ctl" -D "$PGDATA" -l "$dir/postmaster.log" -w -t 120 start >/dev/null 2>&1 ||
		{ tail -20 "$dir/postmaster.log" >&2; die "server did not start"; }
	export PGDATA PGHOST PGPORT
}

# standby_start NAME: a streaming standby of the current cluster, made with
# pg_basebackup; sets STANDBY_DATA, STANDBY_HOST, STANDBY_PORT, STANDBY_LOG.
standby_start() {
	local dir=$WORK/$1
	mkdir -p "$dir"
	STANDBY_DATA=$dir/data
	STANDBY_HOST=$(mktemp -d "$WORK/sock.XXXX")
	STANDBY_PORT=$(free_port)
	STANDBY_LOG=$dir/postmaster.log
	[ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$dir" "$STANDBY_HOST"
	chmod 700 "$STANDBY_HOST"
	as_user "$PGBIN/pg_basebackup" -D "$STANDBY_DATA" -R -X stream --no-sync \
		-C -S "$(echo "$1" | tr -c "a-z0-9\n" _)" \
		>"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log" >&2; die "pg_basebackup failed"; }
	{
		echo "port = $STANDBY_PORT"
		echo "unix_socket_directories = '$STANDBY_HOST'"
	} >>"$STANDBY_DATA/postgresql.conf"
	_CLUSTERS+=("$STANDBY_DATA")
	as_user "$PGBIN/pg_ctl" -D "$STANDBY_DATA" -l "$STANDBY_LOG" -w -t 120 start >/dev/null 2>&1 ||
		{ tail -20 "$STANDBY_LOG" >&2; die "standby did not start"; }
}

cluster_stop() {
	as_user "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >/dev/null 2>&1
}

# The tests a pg_regress (or pg_isolation_regress) run reported, one line
# each: "ok NAME" or "failed NAME".  Up to 15 it prints "test NAME ... ok"
# (parallel groups: "     NAME ... FAILED"), from 16 TAP lines:
# "ok 1         - NAME   12 ms", "not ok 2     + NAME   12 ms".
pg_regress_results() {	# out-file
	awk '
		/^(not )?ok [0-9]+ +[-+] / {
			st = ($1 == "not") ? "failed" : "ok"
			sub(/^(not )?ok [0-9]+ +[-+] +/, "")
			print st, $1
			next
		}
		/ \.\.\. / {
			for (i = 1; i < NF; i++)
				if ($(i + 1) == "...") {
					print ($(i + 2) == "ok" ? "ok" : "failed"), $i
					break
				}
		}' "$1"
}

# selinux_policy TYPE: the system's binary policy of TYPE (default, mls),
# /etc/selinux/TYPE/policy/policy.N with the highest N: Debian 12's libsepol
# writes policy.33, Debian 13's policy.34.
selinux_policy() {
	local f best= n bn=-1
	for f in /etc/selinux/"$1"/policy/policy.[0-9]*; do
		n=${f##*.}
		[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt "$bn" ] && { best=$f; bn=$n; }
	done
	echo "${best:-/etc/selinux/$1/policy/policy.33}"
}

# test_conf FILE: test/test.conf's settings, one a line, comments left out
# and "@policy(TYPE)@" written as the path selinux_policy TYPE gives.
test_conf() {
	local l t
	while IFS= read -r l; do
		[[ "$l" =~ ^[[:space:]]*(#|$) ]] && continue
		while [[ "$l" =~ @policy\(([a-z]+)\)@ ]]; do
			t=${BASH_REMATCH[1]}
			l=${l//"@policy($t)@"/$(selinux_policy "$t")}
		done
		printf '%s\n' "$l"
	done <"$1"
}

# psql against the current cluster, as the cluster's OS user
psql_q() { as_user "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

# label_file PATH LABEL: give a file the SELinux label (its security.selinux
# attribute) that labelam decides server-side COPY and large-object files by
# (src/files); root may, and so may the file's owner where the kernel runs
# SELinux without a policy loaded
label_file() {
	/usr/bin/python3 -c 'import os, sys; os.setxattr(sys.argv[1], "security.selinux", sys.argv[2].encode() + b"\0")' "$1" "$2"
}
