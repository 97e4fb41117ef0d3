#!/usr/bin/env bash
# Install Debian's chromium for the browser tests if it is missing (never a browser download).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "Installing Debian's chromium for the browser tests..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
