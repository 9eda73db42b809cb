#!/bin/bash
# scripts/chroot-run.sh ROOT [--bind DIR]... CMD ARGS... -- run CMD chrooted
# into ROOT with /proc, /dev (with /dev/pts, /dev/shm) and /sys mounted.
#
# The mounts are made in a private mount namespace (unshare -m): nobody
# outside sees them, and they disappear with the last process of the
# command, on success, error, signal or kill -9 alike; nothing is left
# mounted under ROOT.  --bind DIR makes the host's DIR visible at the same
# path inside ROOT (created empty there if missing).
# The environment is passed through as it is; PATH gets the root's usual
# directories.
set -euo pipefail

ARGS=("$@")
ROOT=${1:?usage: $0 ROOT [--bind DIR]... CMD ARGS...}
shift
BINDS=()
while [ "${1:-}" = --bind ]; do
	BINDS+=("$2")
	shift 2
done
[ $# -gt 0 ] || { echo "usage: $0 ROOT [--bind DIR]... CMD ARGS..." >&2; exit 2; }
[ -d "$ROOT/proc" ] || { echo "chroot-run: $ROOT is not a root" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "chroot-run: needs root (chroot, mount)" >&2; exit 2; }

if [ "${_CHROOT_RUN_NS:-}" != "$ROOT" ]; then
	# again, in a new mount namespace whose mounts are private
	_CHROOT_RUN_NS=$ROOT exec unshare --mount --propagation private "$0" "${ARGS[@]}"
fi
unset _CHROOT_RUN_NS

mount -t proc proc "$ROOT/proc"
mount --rbind /dev "$ROOT/dev"
mount --rbind /sys "$ROOT/sys"
for b in "${BINDS[@]}"; do
	mkdir -p "$ROOT$b"
	mount --bind "$b" "$ROOT$b"
done
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
exec chroot "$ROOT" "$@"
