// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the FEN parser. A position it accepts must be legal, print back to a FEN that
// parses to the same position, and generate its moves.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "chess/position.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto pos = egtmin::Position::from_fen(text);
  if (!pos) return 0;
  if (pos->illegal_reason()) __builtin_trap();
  auto again = egtmin::Position::from_fen(pos->fen());
  if (!again || !(*again == *pos)) __builtin_trap();
  for (const egtmin::Move& m : egtmin::legal_moves(*pos)) (void)pos->after(m);
  return 0;
}
