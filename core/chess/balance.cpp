// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/balance.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

#include "util/defaults.hpp"

namespace egtmin {

int Balance::pieces(Color c) const {
  int n = 0;
  for (int t = 0; t < kPieceTypes; ++t) n += count(c, PieceType(t));
  return n;
}

int Balance::pieces() const { return pieces(White) + pieces(Black); }

Result<Balance> Balance::parse(std::string_view name) {
  auto fail = [&](const std::string& why) {
    return Error{"bad material balance \"" + std::string(name) + "\": " + why};
  };
  size_t v = std::string_view::npos;
  for (size_t i = 0; i < name.size(); ++i)
    if (name[i] == 'v' || name[i] == 'V' || name[i] == '-') {
      if (v != std::string_view::npos) return fail("more than one 'v' separator");
      v = i;
    }
  if (v == std::string_view::npos) return fail("expected two sides separated by 'v', as in KRvK");
  Balance b;
  for (int side = 0; side < 2; ++side) {
    std::string_view s = side == 0 ? name.substr(0, v) : name.substr(v + 1);
    if (s.empty()) return fail(std::string(side == 0 ? "White's" : "Black's") + " side is empty");
    for (char c : s) {
      Piece p = piece_from_char(char(std::toupper(static_cast<unsigned char>(c))));
      if (p == NoPiece) return fail(std::string("unknown piece letter '") + c + "' (use K Q R B N P)");
      b.count_[make_piece(Color(side), type_of(p))]++;
    }
    if (b.count(Color(side), King) != 1)
      return fail(std::string(side == 0 ? "White" : "Black") + " needs exactly one king, has " +
                  std::to_string(b.count(Color(side), King)));
  }
  if (b.pieces() > kMaxPieces)
    return fail("more pieces than supported (" + std::to_string(b.pieces()) + " > " + std::to_string(kMaxPieces) + ")");
  return b;
}

Balance Balance::of(const Position& pos) {
  Balance b;
  for (int p = 0; p < kPieces; ++p) b.count_[p] = uint8_t(popcount(pos.pieces(Piece(p))));
  return b;
}

std::string Balance::name() const {
  std::string s;
  for (Color c : {White, Black}) {
    if (c == Black) s += 'v';
    for (int t = 0; t < kPieceTypes; ++t) s.append(count(c, PieceType(t)), type_char(PieceType(t)));
  }
  return s;
}

bool Balance::is_canonical() const {
  // Syzygy: more pieces is stronger; with equal counts, compare the pieces strongest first
  // (Q > R > B > N > P), as its file names (KRvKB, KBvKN, KNvKP) show.
  if (pieces(White) != pieces(Black)) return pieces(White) > pieces(Black);
  for (int t = Queen; t <= Pawn; ++t)
    if (count(White, PieceType(t)) != count(Black, PieceType(t)))
      return count(White, PieceType(t)) > count(Black, PieceType(t));
  return true;
}

uint64_t Balance::material_key() const {
  uint64_t key = 0;
  for (int pc = 0; pc < kPieces; ++pc) key += uint64_t(count_[size_t(pc)]) * Position::material_unit(Piece(pc));
  return key;
}

Balance Balance::flipped() const {
  Balance b;
  for (int t = 0; t < kPieceTypes; ++t) {
    b.count_[make_piece(White, PieceType(t))] = uint8_t(count(Black, PieceType(t)));
    b.count_[make_piece(Black, PieceType(t))] = uint8_t(count(White, PieceType(t)));
  }
  return b;
}

std::vector<Piece> Balance::piece_order() const {
  std::vector<Piece> order;
  for (int p = 0; p < kPieces; ++p) order.insert(order.end(), count_[p], Piece(p));
  return order;
}

std::vector<Balance> Balance::all_up_to(int n) {
  std::vector<Balance> out;
  // Enumerate non-king multisets for each side; keep canonical colourings once.
  std::function<void(Balance&, int, int)> rec = [&](Balance& b, int from, int left) {
    if (b.is_canonical() && std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
    if (left == 0) return;
    for (int p = from; p < kPieces; ++p) {
      if (type_of(Piece(p)) == King) continue;
      b.count_[p]++;
      rec(b, p, left - 1);
      b.count_[p]--;
    }
  };
  Balance kk;
  kk.count_[make_piece(White, King)] = kk.count_[make_piece(Black, King)] = 1;
  rec(kk, 0, n - 2);
  std::stable_sort(out.begin(), out.end(), [](const Balance& a, const Balance& b) {
    if (a.pieces() != b.pieces()) return a.pieces() < b.pieces();
    return a.name() < b.name();
  });
  return out;
}

bool is_supported(const Balance& b) { return b.pieces() >= kMinSupportedPieces && b.pieces() <= kMaxSupportedPieces; }

Status check_supported(const Balance& b) {
  if (is_supported(b)) return ok_status();
  return Error{b.name() + " has " + std::to_string(b.pieces()) + " pieces; egtmin handles " +
               std::to_string(kMinSupportedPieces) + " to " + std::to_string(kMaxSupportedPieces)};
}

}  // namespace egtmin
