#!/usr/bin/env bash
# Fetches the Debian crowdsec package and extracts it into .tmp/crowdsec/ (idempotent). Its
# post-install registers with the online API and fails offline, so it is never apt-get installed:
# the tests run the extracted crowdsec (LAPI only, -no-cs) and cscli with a private config.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.tmp/crowdsec
if [ -x "$dest/usr/bin/crowdsec" ] && [ -x "$dest/usr/bin/cscli" ]; then
  exit 0
fi
mkdir -p "$dest"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt-get download writes into the current folder; _apt cannot write a root-owned mktemp dir.
chmod 0777 "$work"
(cd "$work" && apt-get download crowdsec >/dev/null 2>&1) || {
  apt-get update >/dev/null
  (cd "$work" && apt-get download crowdsec)
}
dpkg-deb -x "$work"/crowdsec_*.deb "$work/x"
mkdir -p "$dest/usr/bin"
cp "$work/x/usr/bin/crowdsec" "$work/x/usr/bin/cscli" "$dest/usr/bin/"
echo "crowdsec extracted to $dest"
