#!/bin/sh
# Lets the Narration Studio AppImage start on Ubuntu 24.04 and later, where AppArmor refuses
# the user namespaces Chromium's sandbox needs to programs without a profile (the deb installs
# its own profile; an AppImage cannot, as it runs from wherever it was saved). Writes a profile
# for this one AppImage file, with the sandbox kept on, and loads it:
#   sudo sh appimage-apparmor.sh ~/Applications/Narration-Studio-0.1.0-x86_64.AppImage
# With --print, writes the profile to standard output instead (no root needed).
# Run it again after moving or renaming the AppImage; remove the profile with
#   sudo rm /etc/apparmor.d/narration-studio-appimage && sudo systemctl reload apparmor
set -eu

print=no
if [ "${1:-}" = "--print" ]; then
  print=yes
  shift
fi
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: sudo sh appimage-apparmor.sh [--print] <path of the Narration Studio AppImage>" >&2
  exit 2
fi
appimage=$(realpath "$1")
case "$appimage" in
  *'"'* | *'
'*)
    echo "error: move the AppImage to a path without double quotes or line breaks, then run this again" >&2
    exit 2
    ;;
esac

profile() {
  cat <<PROFILE
# Narration Studio AppImage: lets Chromium's sandbox create its user namespaces.
# Written by appimage-apparmor.sh for this file only.
abi <abi/4.0>,
include <tunables/global>

profile narration-studio-appimage "$appimage" flags=(unconfined) {
  userns,

  include if exists <local/narration-studio-appimage>
}
PROFILE
}

if [ "$print" = yes ]; then
  profile
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "error: run it with sudo (it writes /etc/apparmor.d/narration-studio-appimage)" >&2
  exit 1
fi
if [ ! -d /etc/apparmor.d ] || ! command -v apparmor_parser >/dev/null 2>&1; then
  echo "AppArmor is not in use here: the AppImage needs no profile."
  exit 0
fi
profile > /etc/apparmor.d/narration-studio-appimage
apparmor_parser -r /etc/apparmor.d/narration-studio-appimage
echo "Done: $appimage may now start with its sandbox on."
