// SPDX-License-Identifier: GPL-3.0-or-later
// Cover files (DATA/covers/NAME.egtc): one minimized ON-cover per balance, behind a versioned
// header. The cubes are stored as a trie of fields (store/cube_trie.hpp) in a raw LZMA2 stream at
// preset 9 | extreme. The cubes give each position's value without the 50-move rule; the rule's
// draws (the cursed wins and blessed losses) follow as a sorted list of representative indices,
// delta-coded in a second LZMA2 stream. Format: docs/file-format.md. Written atomically; the
// reader rejects truncated, corrupted, unknown-version and wrong-balance files with a message
// naming the problem, and files of versions 1 and 2 (made before the 50-move rule's values) with
// one saying to remake them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chess/balance.hpp"
#include "logic/cover.hpp"
#include "logic/cube.hpp"
#include "store/cover_kind.hpp"
#include "table/cover_canon.hpp"
#include "table/wdl.hpp"
#include "util/result.hpp"

namespace egtmin::store {

struct CoverFile {
  Balance balance;  // canonical balance
  int inputs = 0;   // inputs_for(pieces)
  CanonScheme canon = CanonScheme::Full;
  std::string passes;                  // the pipeline that made it, e.g. "compact,expand,irredundant"
  std::vector<logic::CubeWord> cubes;  // ON-cover; each cube has an output (W/D/L for White)
  // Ascending indices, under `canon`, of the representatives whose value is a cursed win or a
  // blessed loss: their cube says win or loss, and the 50-move rule makes it a draw.
  std::vector<uint32_t> rule_draws;
  CoverKind kind = CoverKind::Standalone;
  // The output whose cubes are left out (logic::most_cubes_output): a care position matching no
  // cube has it. Output::None: every output has its cubes, and no match means no value.
  logic::Output implied = logic::Output::None;

  // The output of a representative's minterm: its first cube's, else the implied one.
  logic::Output output_at(logic::CubeWord minterm) const { return logic::output_at(cubes, minterm, implied); }

  // Is the representative with this index a cursed win or blessed loss?
  bool is_rule_draw(uint64_t index) const { return logic::in_rule_draws(rule_draws, index); }
};

// DATA/covers/NAME.egtc (or .egtcr).
std::filesystem::path cover_path(const std::filesystem::path& data_dir, const Balance& b,
                                 CoverKind kind = CoverKind::Standalone);

// The field orders the writer tries for covers of `inputs` inputs: the pieces in every
// order, each with its rank and file fields together, or all ranks first, or all files first
// (3 x pieces! orders, field 0 first in each).
std::vector<std::vector<uint8_t>> candidate_orders(int inputs);
// The payload for `cubes` (any order; duplicates are kept; the trie of version 2, which versions
// 3-5 keep): the candidate order whose
// LZMA2 stream is smallest. Throws std::invalid_argument when `inputs` is not 1 + 6 x pieces or a
// cube fixes an input beyond it (save_cover refuses those first).
std::vector<uint8_t> encode_payload(std::span<const logic::CubeWord> cubes, int inputs);
// Back to the cubes, sorted ascending; errors name the problem (no file name).
Result<std::vector<logic::CubeWord>> decode_payload(std::span<const uint8_t> payload, uint64_t count, int inputs);

// Compresses into the oldest format version that holds the cover: 3 for a standalone cover storing
// every output, 4 for a capture-resolved one, 5 with an implied output (cover_file.cpp). The cubes
// need not be sorted. save_cover writes atomically.
std::vector<uint8_t> serialize_cover(const CoverFile& cover);
Status save_cover(const std::filesystem::path& path, const CoverFile& cover);

// `expected`: when given, a file holding another balance is rejected.
Result<CoverFile> parse_cover(std::span<const uint8_t> bytes, const std::string& origin,
                              const Balance* expected = nullptr);
Result<CoverFile> load_cover(const std::filesystem::path& path, const Balance* expected = nullptr);

}  // namespace egtmin::store
