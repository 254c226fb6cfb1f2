#!/bin/sh
# Runs an image's entrypoint without a container runtime, for machines where containers cannot be
# started (docs/install.md#running-the-image-without-a-container-runtime):
#
#   sh scripts/run-image.sh IMAGE [ARG...]
#
# The image's root filesystem (`podman image mount`) is mounted read-only in a mount namespace of
# its own (an overlay, so that the image's storage is never written), with /proc and /dev, and the
# current directory shared read-only at the same path; the entrypoint runs there (chroot) with
# ARGs, as the image's user, with the image's environment, in the current directory. Nothing can
# be written but /dev. The network is the host's. Exits with the entrypoint's status. Runs as root (podman's storage, mounts).
# Environment: STORAGE_DRIVER (default vfs, as scripts/build-image.sh builds).
set -eu

fail() {
  echo "run-image: $*" >&2
  exit 1
}

[ $# -ge 1 ] || fail "usage: sh scripts/run-image.sh IMAGE [ARG...]"
[ "$(id -u)" = "0" ] || fail "run as root: it mounts the image's filesystem"
command -v podman >/dev/null 2>&1 || fail "podman is not on the PATH (sh scripts/build-image.sh installs it)"
command -v unshare >/dev/null 2>&1 || fail "unshare (util-linux) is not on the PATH"
image=$1
shift
STORAGE_DRIVER=${STORAGE_DRIVER:-vfs}
pod() {
  podman --storage-driver "$STORAGE_DRIVER" "$@"
}

config=$(pod image inspect --format '{{.Config.User}}' "$image") || fail "no image $image"
user=${config:-0:0}
case $user in
  *:*) ;;
  *) user=$user:$user ;;
esac
case $user in
  [0-9]*:[0-9]*) ;;
  *) fail "the image's user $user is not numeric (uid:gid)" ;;
esac
env_lines=$(pod image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$image")
entrypoint=$(pod image inspect --format '{{range .Config.Entrypoint}}{{println .}}{{end}}' "$image")
[ -n "$entrypoint" ] || fail "the image $image has no entrypoint"
share=$(pwd -P)

root=$(pod image mount "$image") || fail "podman image mount $image failed"
# In a new mount namespace: the image's files as the lower layer of an overlay whose upper layer
# is a tmpfs (the image's storage is never written), the shared directory at its own path, /proc
# and /dev, then the whole read-only; every mount goes with the namespace. The process keeps its
# pid through the execs (unshare, sh, chroot, env, the entrypoint): SIGINT and SIGTERM sent to
# this script are passed on to it.
unshare --mount --propagation private sh -eu -c '
  root=$1 share=$2 user=$3 env_lines=$4 entrypoint=$5
  shift 5
  scratch=$(mktemp -d)
  mount -t tmpfs -o mode=0700 tmpfs "$scratch"
  mkdir "$scratch/upper" "$scratch/work" "$scratch/root"
  mnt=$scratch/root
  mount -t overlay overlay -o "lowerdir=$root,upperdir=$scratch/upper,workdir=$scratch/work" "$mnt"
  mount -t proc proc "$mnt/proc"
  mount --rbind /dev "$mnt/dev"
  mkdir -p "$mnt$share"
  mount --bind "$share" "$mnt$share"
  mount -o remount,bind,ro "$mnt$share"
  mount -o remount,ro "$mnt"
  IFS="
"
  set -f
  exec chroot --userspec="$user" --groups="${user#*:}" "$mnt" \
    /usr/bin/env -i -C "$share" $env_lines HOME=/ $entrypoint "$@"
' run-image "$root" "$share" "$user" "$env_lines" "$entrypoint" "$@" &
child=$!
trap 'kill -INT "$child" 2>/dev/null || true' INT
trap 'kill -TERM "$child" 2>/dev/null || true' TERM
while :; do
  wait "$child" && status=0 || status=$?
  kill -0 "$child" 2>/dev/null || break
done
pod image unmount "$image" >/dev/null 2>&1 || true
exit "$status"
