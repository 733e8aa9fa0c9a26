// SPDX-License-Identifier: GPL-3.0-or-later
#include "covers/cube_overlay.hpp"

#include <QStringList>
#include <optional>

#include "table/cover_canon.hpp"
#include "table/encoding.hpp"
#include "table/symmetry.hpp"

namespace egtmin::ui {

using logic::CubeWord;

namespace {

QString legendOf(const std::vector<BoardWidget::Overlay>& marks) {
  std::vector<Piece> pieces;
  for (const BoardWidget::Overlay& m : marks) pieces.push_back(m.piece);
  QStringList parts;
  for (int j = 0; j < int(pieces.size()); ++j)
    parts << QStringLiteral("<span style='color:%1'>●</span> %2")
                 .arg(BoardWidget::overlayColor(pieces[size_t(j)]).name(), CubeDecoder::pieceLabel(pieces, j));
  return parts.join(QStringLiteral("&nbsp;&nbsp;"));
}

}  // namespace

CubeOverlay cubeOverlay(const CubeDecoder& decoder, CubeWord cube) {
  CubeOverlay o;
  for (int j = 0; j < int(decoder.pieces().size()); ++j)
    o.marks.push_back({decoder.pieces()[size_t(j)], decoder.squares(cube, j)});
  o.legend = legendOf(o.marks);
  return o;
}

CubeOverlay cubeOverlayFor(const Position& pos, const Balance& cover, CubeWord cube) {
  if (!cube) return {};
  const Encoding enc(cover);
  // The prober reads a position of the other colouring with its colours swapped (KvKR as KRvK).
  const bool flipped = Balance::of(pos) != cover;
  const std::optional<Placement> placed = enc.placement(flipped ? pos.color_flipped() : pos);
  if (!placed) return {};
  const Symmetry symmetry(enc);
  const CubeDecoder decoder(cover);
  // The cover's canonicalization scheme is not known here: each scheme's representative in turn,
  // the position as it stands first.
  for (CanonScheme scheme : {CanonScheme::None, CanonScheme::Board, CanonScheme::Full}) {
    const CoverCanon::Representative rep = CoverCanon(enc, scheme).canonical(*placed);
    if (!logic::contains(cube, logic::minterm(enc.encode(rep.placement), enc.bits()))) continue;
    // The full scheme swaps the colours of a balance equal to its own flip (with Black to move).
    const bool swapped = flipped || rep.negate;
    const std::optional<Placement> base = enc.placement(swapped ? pos.color_flipped() : pos);
    if (!base) continue;
    // The board symmetry that takes the (swapped) position to its representative.
    for (int g = 0; g < int(kTransforms.size()); ++g) {
      Placement turned = *base;
      for (int i = 0; i < enc.pieces(); ++i) turned.sq[size_t(i)] = kTransforms[size_t(g)][base->sq[size_t(i)]];
      symmetry.sort_identical(turned);
      if (enc.encode(turned) != enc.encode(rep.placement)) continue;
      // The cube's squares, turned back onto pos's board: square s of the (swapped) position is
      // marked where the cube holds its image under g.
      CubeOverlay o;
      for (int j = 0; j < enc.pieces(); ++j) {
        const Bitboard held = decoder.squares(cube, j);
        Bitboard here = 0;
        for (int s = 0; s < 64; ++s)
          if (held & bb(kTransforms[size_t(g)][size_t(s)])) here |= bb(swapped ? flip_rank(Square(s)) : Square(s));
        const Piece p = decoder.pieces()[size_t(j)];
        o.marks.push_back({swapped ? make_piece(~color_of(p), type_of(p)) : p, here});
      }
      o.legend = legendOf(o.marks);
      return o;
    }
  }
  return {};
}

}  // namespace egtmin::ui
