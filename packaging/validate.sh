#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a validator (desktop-file-validate, appstreamcli, ...) when it is installed; otherwise says
# so and exits 77, which CTest reports as skipped (SKIP_RETURN_CODE 77).
#   validate.sh TOOL [ARGS...]
tool=$1
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "$tool is not installed: skipping (install it with scripts/setup.sh)"
  exit 77
fi
exec "$@"
