// SPDX-License-Identifier: GPL-3.0-or-later
// Berkeley espresso PLA text (.i .o .ilb .ob .p .type .e) for one balance: inputs in the paper's
// order (side to move, then 6 square bits per piece), three one-hot outputs win/draw/loss for
// White. Tables are written as type fr (every care position ON for its output and OFF for the
// other two; don't-cares are the unlisted rows), covers as type fd. A leading comment records the
// balance and canonicalization scheme so import can restore them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "table/cover_canon.hpp"
#include "util/result.hpp"

namespace egtmin::logic {

struct PlaHeader {
  std::string balance;  // from "# egtmin balance=NAME canon=SCHEME [implied=OUTPUT]", may be empty
  std::optional<CanonScheme> canon;
  Output implied = Output::None;  // a cover's output that has no rows (store::CoverFile::implied)
};

// Input labels: stm, then e.g. wK5 .. wK0 per piece (white/black, piece letter, bit).
std::string pla_input_labels(const Encoding& enc);

// Writes the cover (each cube one row) as type fd; an implied output goes in the header comment.
std::string write_pla_cover(const Encoding& enc, const Cover& cover, CanonScheme scheme, Output implied = Output::None);
// Writes every care minterm of f as type fr; `sink` receives the text in pieces (tables are big).
void write_pla_function(const Encoding& enc, const CareFunction& f, const std::function<void(std::string_view)>& sink);

struct PlaContent {
  PlaHeader header;
  int inputs = 0;
  int outputs = 0;
  std::string type = "fd";
  Cover on;  // one cube per (row, output that is 1)
  uint64_t rows = 0;
};
// Parses PLA text. expected_inputs > 0 rejects another width. Errors name the line.
Result<PlaContent> parse_pla(std::string_view text, const std::string& origin, int expected_inputs = 0);

}  // namespace egtmin::logic
