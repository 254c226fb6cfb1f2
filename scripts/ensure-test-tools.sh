#!/bin/sh
# Installs the real parts the tests use when they are missing: Prometheus and Alertmanager
# (Debian packages `prometheus`, `prometheus-alertmanager`), tmux (the pseudo-terminal the
# live-progress tests run `simulate` in) and Chromium (the browser, headless, that loads the
# upgrade picture of `simulate --html`). kubectl is expected on the PATH.
# As root it installs with apt-get; otherwise it tries `sudo -n`, and fails with a clear message.
set -e
missing=""
command -v prometheus >/dev/null 2>&1 || missing="$missing prometheus"
command -v prometheus-alertmanager >/dev/null 2>&1 || command -v alertmanager >/dev/null 2>&1 || missing="$missing prometheus-alertmanager"
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
if ! command -v kubectl >/dev/null 2>&1; then
  echo "ensure-test-tools: kubectl is not on the PATH; the interop tests drive the real kubectl" >&2
  exit 1
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure-test-tools: missing Debian packages:$missing; install them (apt-get install$missing) and run again" >&2
  exit 1
fi
echo "Installing$missing (apt-get)..." >&2
$SUDO apt-get update -qq >&2
# The packages' services are not started: the tests run their own instances on loopback.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
