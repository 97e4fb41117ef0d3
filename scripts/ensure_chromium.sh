#!/usr/bin/env bash
# Install Debian's chromium for the browser tests if it is missing (never a browser download).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "Installing Debian's chromium for the browser tests..."
# Wait (up to 5 minutes) for another apt/dpkg run to release its lock instead of failing.
APT="apt-get -o DPkg::Lock::Timeout=300"
$SUDO $APT update -qq
DEBIAN_FRONTEND=noninteractive $SUDO $APT install -y -qq chromium >/dev/null
/usr/bin/chromium --version
