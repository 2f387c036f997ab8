#!/usr/bin/env bash
# Installs the system packages the test suite uses: Debian's Chromium (browser tests), a CJK font
# (fonts-noto-cjk: without it Chromium draws Korean as empty boxes in the test screenshots) and systemd-analyze
# (unit file check), Graphviz's `dot` (WireViz draws the builder's harnesses with it) and Mosquitto 2 (the venue
# tests start `mosquitto -c <conf>` on free ports; never the system service). Needs root and apt; elsewhere it
# says what is missing and leaves it to the user.
set -u
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=ko family 2>/dev/null)" ]; then need+=(fonts-noto-cjk); fi
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v dot >/dev/null 2>&1 || need+=(graphviz)
{ [ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null 2>&1; } && command -v mosquitto_passwd >/dev/null 2>&1 || need+=(mosquitto)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${need[*]} (Debian packages) for the test suite"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
else
  echo "note: ${need[*]} missing and cannot be installed here (not root or no apt); the tests that need them will fail" >&2
fi
exit 0
