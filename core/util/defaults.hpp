// SPDX-License-Identifier: GPL-3.0-or-later
// The defaults the CLI, the GUI and core share, each defined here once.
#pragma once

namespace egtmin {

// Piece counts egtmin generates, minimizes and probes (kings included).
inline constexpr int kMinSupportedPieces = 2;
inline constexpr int kMaxSupportedPieces = 5;

// Worker threads when the user asks for none in particular: one per hardware thread.
int default_threads();
// `requested` when positive, else default_threads().
int resolve_threads(int requested);

}  // namespace egtmin
