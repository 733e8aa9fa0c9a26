// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/cube.hpp"

#include "chess/types.hpp"

namespace egtmin::logic {

std::string to_text(CubeWord c, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (i == 1 || (i > 1 && (i - 1) % kSquareBits == 0)) s += ' ';
    unsigned pair = unsigned(c >> pair_shift(i)) & 3;
    s += pair == 2 ? '0' : pair == 1 ? '1' : pair == 3 ? 'X' : '-';
  }
  switch (output_of(c)) {
    case Output::Win: s += " 100"; break;
    case Output::Draw: s += " 010"; break;
    case Output::Loss: s += " 001"; break;
    default: s += " 000"; break;
  }
  return s;
}

}  // namespace egtmin::logic
