#!/bin/sh
# Installs the project's npm dependencies when they are missing or older than the lock file.
# Used by `npm run demo` and `npm test`, so that each of the README's two commands works on a
# fresh clone by itself.
set -e
cd "$(dirname "$0")/.."
# A node_modules that is a symlink (a git worktree sharing another tree's packages) belongs to
# that other tree: reinstalling through it would empty the packages the other tree runs on.
if [ -L node_modules ]; then
  exit 0
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm dependencies (npm ci)..." >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
