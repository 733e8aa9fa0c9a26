// SPDX-License-Identifier: GPL-3.0-or-later
#include "covers/cube_decoder.hpp"

#include <QObject>
#include <QStringList>

namespace egtmin::ui {

using logic::CubeWord;

CubeDecoder::CubeDecoder(const Balance& b) : balance_(b), pieces_(b.piece_order()) {}

int CubeDecoder::inputValue(CubeWord c, int input) {
  const int pair = int((c >> logic::pair_shift(input)) & 3);
  // High bit: may be 0; low bit: may be 1.
  switch (pair) {
    case 2: return -1;
    case 1: return 1;
    case 3: return 2;
    default: return 0;
  }
}

QChar CubeDecoder::sideToMove(CubeWord c) const {
  switch (inputValue(c, 0)) {
    case -1: return QLatin1Char('w');  // input 0 is the side-to-move bit: 0 = White
    case 1: return QLatin1Char('b');
    case 2: return QLatin1Char('-');
  }
  return QLatin1Char('!');
}

namespace {
// The values a 3-bit field may take given its ternary bits (most significant first).
std::vector<int> values3(const int v[3]) {
  std::vector<int> out;
  for (int x = 0; x < 8; ++x) {
    bool ok = true;
    for (int b = 0; b < 3 && ok; ++b) {
      const int bit = (x >> (2 - b)) & 1;
      ok = v[b] == 2 || (v[b] == 1 && bit) || (v[b] == -1 && !bit);
    }
    if (ok) out.push_back(x);
  }
  return out;
}

// "a-d", "e", "a,c,e,g" from sorted values, with label(i) naming value i.
template <class F>
QString listOf(const std::vector<int>& vals, F label) {
  if (vals.size() > 1 && vals.back() - vals.front() + 1 == int(vals.size()))
    return label(vals.front()) + QLatin1Char('-') + label(vals.back());
  QStringList parts;
  for (int v : vals) parts << label(v);
  return parts.join(QLatin1Char(','));
}
}  // namespace

Bitboard CubeDecoder::squares(CubeWord c, int j) const {
  Bitboard out = 0;
  const int first = square_input(j);
  for (int s = 0; s < 64; ++s) {
    bool ok = true;
    for (int b = 0; b < kSquareBits && ok; ++b) {
      const int v = inputValue(c, first + b);
      const int bit = (s >> (kSquareBits - 1 - b)) & 1;
      ok = v == 2 || (v == 1 && bit) || (v == -1 && !bit);
    }
    if (ok) out |= bb(Square(s));
  }
  return out;
}

QString CubeDecoder::describe(CubeWord c, int j) const {
  const int first = square_input(j);
  // A square's 6 bits are its row (0 = rank 8) then its file: the set is rows x files.
  int rowBits[3], fileBits[3];
  for (int b = 0; b < 3; ++b) {
    rowBits[b] = inputValue(c, first + b);
    fileBits[b] = inputValue(c, first + 3 + b);
    if (rowBits[b] == 0 || fileBits[b] == 0) return QObject::tr("none");
  }
  std::vector<int> rows = values3(rowBits), files = values3(fileBits);
  std::vector<int> ranks;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) ranks.push_back(7 - *it);  // ascending ranks
  if (ranks.size() == 1 && files.size() == 1) return QString(QChar('a' + files[0])) + QString::number(ranks[0] + 1);
  if (ranks.size() == 8 && files.size() == 8) return QObject::tr("anywhere");
  auto fileName = [](int f) { return QString(QChar('a' + f)); };
  auto rankName = [](int r) { return QString::number(r + 1); };
  QStringList parts;
  if (files.size() < 8)
    parts << (files.size() == 1 ? QObject::tr("file %1") : QObject::tr("files %1")).arg(listOf(files, fileName));
  if (ranks.size() < 8)
    parts << (ranks.size() == 1 ? QObject::tr("rank %1") : QObject::tr("ranks %1")).arg(listOf(ranks, rankName));
  return parts.join(QStringLiteral(", "));
}

QString CubeDecoder::pieceLabel(const std::vector<Piece>& pieces, int j) {
  const Piece p = pieces[j];
  QString label = QString(QChar(color_of(p) == White ? 'w' : 'b')) + QChar(type_char(type_of(p)));
  int same = 0, index = 0;
  for (int k = 0; k < int(pieces.size()); ++k) {
    if (pieces[k] != p) continue;
    ++same;
    if (k < j) ++index;
  }
  if (same > 1) label += QString::number(index + 1);
  return label;
}

QString CubeDecoder::outputName(logic::Output o) {
  switch (o) {
    case logic::Output::Win: return QObject::tr("White wins");
    case logic::Output::Draw: return QObject::tr("draw");
    case logic::Output::Loss: return QObject::tr("White loses");
    case logic::Output::None: break;
  }
  return QObject::tr("none");
}

}  // namespace egtmin::ui
