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
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
LABELAM_USER=${LABELAM_USER:-labelam_run}

die() { echo "labelam: $*" >&2; exit 2; }

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
	"$LABELAM_TOP/scripts/deps.sh" "$@" || die "missing packages"
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

# psql against the current cluster, as the cluster's OS user
psql_q() { as_user "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
