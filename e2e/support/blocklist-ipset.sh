#!/bin/sh
# A router's cron job for the PBX blocklist feed (plain_text): fetch it with the key as the Basic
# password, load it into a fresh ipset and swap that in atomically, so the DROP rule never sees a
# half-loaded list. An unchanged feed (304 to If-None-Match) is left alone.
# Usage: blocklist-ipset.sh <feed URL with user:key@> <set name> <state dir> [curl source address]
set -eu
url="$1" set="$2" dir="$3" from="${4:-}"
etag_file="$dir/$set.etag"
body="$dir/$set.txt"
headers="$dir/$set.headers"
etag=$(cat "$etag_file" 2>/dev/null || true)
status=$(curl --silent --show-error --max-time 10 ${from:+--interface "$from"} --compressed \
  ${etag:+--header "If-None-Match: $etag"} --dump-header "$headers" --output "$body.new" --write-out '%{http_code}' "$url")
case "$status" in
  304) echo "unchanged"; exit 0 ;;
  200) ;;
  *) echo "feed answered $status" >&2; exit 1 ;;
esac
mv "$body.new" "$body"
ipset create "$set" hash:net -exist
{
  echo "create $set-new hash:net -exist"
  echo "flush $set-new"
  sed -e '/^$/d' -e "s/^/add $set-new /" "$body"
} | ipset restore
ipset swap "$set-new" "$set"
ipset destroy "$set-new"
grep -i '^etag:' "$headers" | sed -e 's/^[^:]*: *//' -e 's/\r$//' > "$etag_file"
echo "loaded $(grep -c . "$body" || true) entries"
