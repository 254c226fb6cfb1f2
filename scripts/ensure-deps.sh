#!/bin/sh
# Installs the project's npm dependencies when they are missing or older than the lock file.
# Used by `npm run demo` and `npm test`, so that each of the README's two commands works on a
# fresh clone by itself.
set -e
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm dependencies (npm ci)..." >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
