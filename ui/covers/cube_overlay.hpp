// SPDX-License-Identifier: GPL-3.0-or-later
// A cube drawn on the board: for each piece of its balance, the squares the cube lets it stand on
// (BoardWidget's overlay dots), and a legend naming each piece's dot colour. The cover viewer
// draws its selected cube with it, the probe panel the cube that answered its position.
#pragma once

#include <QString>
#include <vector>

#include "board/board_widget.hpp"
#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "covers/cube_decoder.hpp"
#include "logic/cube.hpp"

namespace egtmin::ui {

struct CubeOverlay {
  std::vector<BoardWidget::Overlay> marks;  // one per piece; empty: nothing to draw
  QString legend;  // rich text: each piece's dot colour and label ("wK", "bP2"), empty without marks
};

// The cube as its cover stores it: the pieces and squares of the cover's balance (the decoder's).
CubeOverlay cubeOverlay(const CubeDecoder& decoder, logic::CubeWord cube);

// The cube of the cover of `cover` (a canonical balance) that answered a probe of `pos`, drawn on
// pos's board. A cover answers for a position's representative (colours swapped into the stored
// balance, the board turned by one of the balance's symmetries, identical pieces sorted), so the
// marks are turned back the same way: every piece of pos stands on one of its dots. Empty when no
// representative of pos lies in the cube.
CubeOverlay cubeOverlayFor(const Position& pos, const Balance& cover, logic::CubeWord cube);

}  // namespace egtmin::ui
