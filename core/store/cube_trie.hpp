// SPDX-License-Identifier: GPL-3.0-or-later
// The cube layouts of cover files since version 2, as versions 3-5 keep them (docs/file-format.md,
// "Payload: the cubes"): a cover's cubes as a trie over fields, before LZMA2.
//
// A cube of n = 1 + 6k inputs is cut into m = 1 + 2k fields: field 0 is the output and the
// side-to-move pair (the word's top 4 bits); field 1 + 2p holds piece p's three rank inputs and
// field 2 + 2p its three file inputs (6 bits each). Inputs n..30 are always 11 and are not stored.
// A field is stored as a code: legal values (pairs 01, 10, 11 only) as base-3 numbers in PCN order
// (1 < 0 < don't care: 0..26 for piece fields, 0..8 for field 0), illegal ones after them.
//
// The cubes are sorted by their field codes taken in a chosen `order` (a permutation of 0..m-1).
// Cube i's depth is the first position in the order where its fields differ from cube i-1's (0 for
// the first cube, m for a repeated cube). Fields before the depth are not stored; the field at the
// depth is stored as a step (code - previous cube's code - 1), the fields after it as codes.
//   - Planes (layout 1, any cover): the C depth bytes, then for each position j in the order the
//     steps of the cubes of depth j, then the codes of the cubes of depth < j (and the first cube).
//   - Rows (layout 2, up to 4 pieces, legal fields, no repeated cube): cube after cube, one byte
//     per stored field, the field's position in the order in the top 3 bits (which tells the depth
//     and lets LZMA's literal coder, with lc = 3, keep statistics per field) and the step or code
//     in the low 5; field 0 uses the low values 27..31 no other field uses.
// Which order compresses best depends on the balance (a pawn first in most pawn balances, the
// kings first in most pawnless ones); the writer tries several (store/cover_file.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "logic/cube.hpp"
#include "util/result.hpp"

namespace egtmin::store {

// Fields of a cube of `inputs` inputs, or 0 when `inputs` is not 1 + 6k (k = 1..5).
int trie_field_count(int inputs);
// Field f of cube c (f < trie_field_count(inputs)).
uint32_t trie_field(logic::CubeWord c, int f);
// Does c keep every input from `inputs` on at 11 (the bits the layout does not store)?
bool trie_representable(logic::CubeWord c, int inputs);
// Is `order` a permutation of 0..trie_field_count(inputs)-1?
bool trie_order_valid(std::span<const uint8_t> order, int inputs);

enum class TrieLayout : uint8_t { Planes = 1, Rows = 2 };

// The layout of `cubes` (any order; each trie_representable) for a valid `order`; nullopt when
// the row layout cannot hold them (more than 4 pieces, an illegal field, a repeated cube).
std::optional<std::vector<uint8_t>> trie_encode(std::span<const logic::CubeWord> cubes, int inputs,
                                                std::span<const uint8_t> order, TrieLayout layout);

// Back to `count` cubes, in the layout's order (sorted by the fields in `order`, not by word).
// Rejects anything trie_encode cannot have written: a bad depth or field tag, a step past the last
// code, too few or too many bytes. The error says what is wrong (no file name).
Result<std::vector<logic::CubeWord>> trie_decode(std::span<const uint8_t> raw, uint64_t count, int inputs,
                                                 std::span<const uint8_t> order, TrieLayout layout);

}  // namespace egtmin::store
