// SPDX-License-Identifier: GPL-3.0-or-later
// The defaults the CLI, the GUI and core share, each defined here once.
#pragma once

namespace egtmin {

// Piece counts egtmin generates, minimizes and probes (kings included).
inline constexpr int kMinSupportedPieces = 2;
inline constexpr int kMaxSupportedPieces = 5;

// The share of its Syzygy WDL file a balance's probe layout should take at most, where a batch
// knows that file's size: above it, the layout's region cubes are framed (a probe decodes a frame of
// them). Why this share: it is the bound on the five-piece layouts together, so a balance whose
// fast form would pass it takes the smaller form, and one under it keeps the fast probe.
inline constexpr double kLayoutSyzygyBound = 0.75;
// Where no form of a layout comes within kLayoutSyzygyBound, the share it still keeps to: its
// fastest form within the Syzygy file itself, which is the bound on each balance alone.
inline constexpr double kLayoutSyzygyCeiling = 1.0;

// Worker threads when the user asks for none in particular: one per hardware thread.
int default_threads();
// `requested` when positive, else default_threads().
int resolve_threads(int requested);

}  // namespace egtmin
