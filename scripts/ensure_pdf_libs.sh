#!/usr/bin/env bash
# Install the Debian libraries WeasyPrint (the statement PDF) needs if any is missing:
# Pango/HarfBuzz for text layout and a few fonts. Waits for another apt/dpkg to finish rather
# than failing on its lock. Never downloads anything but Debian packages.
set -euo pipefail
PACKAGES=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 fonts-dejavu-core fonts-liberation)
missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "Installing Debian packages for PDF statements: ${missing[*]}"
APT=(-o DPkg::Lock::Timeout=300)  # wait up to 5 minutes for another apt to release its lock
$SUDO apt-get "${APT[@]}" update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get "${APT[@]}" install -y -qq "${missing[@]}" >/dev/null
