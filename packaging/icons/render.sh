#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Re-renders the committed PNG icons from egtmin.svg (needs rsvg-convert from librsvg2-bin).
set -eu
cd "$(dirname "$0")"
for size in 48 64 128 256; do
  mkdir -p hicolor/${size}x${size}
  rsvg-convert -w $size -h $size egtmin.svg -o hicolor/${size}x${size}/egtmin.png
done
