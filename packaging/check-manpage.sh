#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks the generated egtmin-cli(1): it exists, has a section for every subcommand that
# `egtmin-cli --help` lists, and (when groff is installed) renders without warnings.
#   check-manpage.sh path/to/egtmin-cli.1 path/to/egtmin-cli
set -eu
page=$1
cli=$2
[ -s "$page" ] || { echo "missing or empty: $page"; exit 1; }
status=0
for sub in $("$cli" --help | awk '/^Subcommands:/ {s=1; next} s && /^[^ ]/ {s=0} s && /^  [A-Za-z0-9]/ {print $1}'); do
  esc=$(printf '%s' "$sub" | sed 's/-/\\-/g')
  if grep -qF ".SS \"egtmin\\-cli $esc\"" "$page"; then
    echo "ok: section for $sub"
  else
    echo "FAIL: no section for subcommand $sub in $page"
    status=1
  fi
done
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
  if [ -n "$warnings" ]; then
    echo "FAIL: groff warnings:"
    echo "$warnings"
    status=1
  else
    echo "ok: groff renders without warnings"
  fi
else
  echo "groff is not installed: rendering not checked"
fi
exit $status
