// SPDX-License-Identifier: GPL-3.0-or-later
// RegionIndex read back from a probe layout and queried outside the hot path (the hot path is
// inline in region_index.hpp); building an index and saving its state are in
// region_index_build.cpp.
#include "probe/region_index.hpp"

#include <algorithm>

namespace egtmin::probe {

void RegionIndex::load_state(ByteReader& r) {
  int32_t k = 0;
  uint64_t dir_words = 0, largest = 0;
  r.get(k);
  r.get(fixed_);
  r.get(free_);
  r.get(dir_words);
  r.get(largest);
  r.get(kings_);
  r.get(unit_shift_);
  r.get(subcube_);
  uint8_t evasions = 0;
  r.get(evasions);
  evasions_ = evasions == uint8_t(CheckEvasions::Searched) ? CheckEvasions::Searched : CheckEvasions::Stored;
  uint64_t searched_words = 0;
  r.get(searched_words);
  searched_words_ = searched_words;
  k_ = k;
  dir_words_ = dir_words;
  largest_ = largest;
}

bool RegionIndex::attach_hot_words(std::span<const uint64_t> hot_words, std::unique_ptr<RegionFrames> frames) {
  if (hot_words.empty() && !frames) return fixed_.empty();  // no region index
  const int k = k_;
  if (k < 3 || k > 5 || int(fixed_.size()) != fixed_count(k) || kings_ > 2 || (kings_ && fixed_[0] != 0)) return false;
  // Two free pieces need a subcube field (0-3) for the output to fit; one has none.
  if ((k - fixed_count(k) == 2) != (subcube_ < kNoSubcube) || subcube_ > kNoSubcube) return false;
  const uint32_t regions = (2 * kKingSquares.count[kings_]) << (kSquareBits * (fixed_count(k) - 1));
  const size_t blocks = (size_t(regions) + kBlockRegions - 1) / kBlockRegions;
  // A layout that searches some regions' evasions has one bit a region after the directory.
  const size_t searched_words = evasions_ == CheckEvasions::Searched ? (size_t(regions) + 63) / 64 : 0;
  if (dir_words_ != blocks * kBlockBytes / 8 || searched_words_ != searched_words || unit_shift_ > 24) return false;
  // Plain: the directory, the searched regions' bits and the cubes with kScanPad zeros. Framed: the
  // bits alone, the frames holding the directory's blocks and the cubes.
  if (frames ? hot_words.size() != searched_words_ || frames->blocks() != blocks
             : hot_words.size() < dir_words_ + searched_words_ + kScanPad / 2)
    return false;
  for (int slot : fixed_)
    if (slot < 0 || slot >= k) return false;
  for (int f = 0; f < k - fixed_count(k); ++f)
    if (free_[size_t(f)] < 0 || free_[size_t(f)] >= k) return false;
  // The directory must stay inside the cubes: a damaged file must not send a probe elsewhere. A
  // block's regions end where its first cube plus all its counts do.
  // Framed, a block's regions must stay inside its frame's cubes.
  const size_t cubes = frames ? 0 : (hot_words.size() - dir_words_ - searched_words_) * 2 - kScanPad;
  const auto* bytes = reinterpret_cast<const uint8_t*>(hot_words.data());
  for (size_t b = 0; b < blocks; ++b) {
    const uint8_t* block = frames ? frames->block(uint32_t(b)) : bytes + b * kBlockBytes;
    uint64_t units = 0;
    for (uint32_t i = 0; i < kBlockRegions; ++i) units += block_units(block, i);
    const uint64_t first = block_first_cube(block), end = first + (units << unit_shift_);
    const uint32_t f = uint32_t(b >> (frames ? frames->block_shift() : 0));
    if (!frames ? end > cubes : first < frames->first(f) || end > frames->first(f + 1)) return false;
  }
  frames_ = std::move(frames);
  words_.clear();
  hot_size_ = hot_words.size();
  words_at_ = hot_words.data();
  return true;
}

std::vector<uint64_t> RegionIndex::framed_words(Framing framing) const {
  if (!built() || frames_) return {};
  const size_t at = dir_words_ + searched_words_;
  std::vector<uint32_t> cubes(reinterpret_cast<const uint32_t*>(words_data() + at),
                              reinterpret_cast<const uint32_t*>(words_data() + words_size()) - kScanPad);
  const size_t blocks = dir_words_ * 8 / kBlockBytes;
  const std::span<const uint8_t> directory(reinterpret_cast<const uint8_t*>(words_data()), blocks * kBlockBytes);
  const uint32_t header_field = region_cube::header_field(subcube_);
  std::vector<uint32_t> first;  // a frame's first cube is its first block's
  for (size_t b = 0; b < blocks; ++b) {
    const uint8_t* block = directory.data() + b * kBlockBytes;
    if (b % framing.blocks_a_frame == 0) first.push_back(block_first_cube(block));
    // Each region's cubes sorted: after a list's header, its kept cubes only (the list follows).
    for (uint32_t i = 0, c = block_first_cube(block); i < kBlockRegions; ++i) {
      const uint32_t n = block_units(block, i) << unit_shift_;
      if (n == 0) continue;
      const uint32_t w0 = cubes[c];
      const bool header = (w0 & header_field) == 0 && region_cube::output(w0) != 0;
      const uint32_t begin = header ? c + 1 : c,
                     end = header ? std::min(c + n, begin + region_list::kept_cubes(w0)) : c + n;
      std::sort(cubes.begin() + begin, cubes.begin() + end);
      c += n;
    }
  }
  first.push_back(uint32_t(cubes.size()));
  return RegionFrames::encode(directory, cubes, first, framing);
}

RegionIndex::Query RegionIndex::query(const Hot& h, uint64_t index) const {
  // The index's low 6 k bits are the squares packed as locate takes them.
  const uint32_t stm = uint32_t(index >> stm_shift(k_)) & 1,
                 packed = uint32_t(index & ((uint64_t{1} << stm_shift(k_)) - 1));
  switch (k_) {
    case 3: return locate<3>(h, stm, packed);
    case 4: return locate<4>(h, stm, packed);
    default: return locate<5>(h, stm, packed);  // built() holds 3 to 5 pieces
  }
}

bool RegionIndex::searched(uint64_t index) const {
  if (!built()) return false;
  const uint32_t stm = uint32_t(index >> stm_shift(k_)) & 1,
                 packed = uint32_t(index & ((uint64_t{1} << stm_shift(k_)) - 1));
  const Hot h = hot();
  switch (k_) {
    case 3: return searched<3>(h, stm, packed);
    case 4: return searched<4>(h, stm, packed);
    default: return searched<5>(h, stm, packed);
  }
}

size_t RegionIndex::searched_regions() const {
  size_t n = 0;
  if (const Hot h = hot(); h.searched)
    for (size_t w = 0; w < searched_words_; ++w) n += size_t(std::popcount(h.searched[w]));
  return n;
}

logic::Output RegionIndex::output(uint64_t index) const {
  if (!built()) return logic::Output::None;
  const Hot h = hot();
  return find_output(h, query(h, index));
}

RegionIndex::Answer RegionIndex::answer(uint64_t index) const {
  Answer a;
  if (!built()) return a;
  const Hot h = hot();
  const Query q = query(h, index);
  const uint32_t* c = region_words(h, q);
  // The first free piece's fields are the word's high ones (region_cube): below field 1's lowest
  // bit lie the second's.
  const uint32_t second = (uint32_t{1} << region_cube::field_shift(1, subcube_)) - 1;
  const uint32_t fields = (uint32_t{1} << kOutputShift) - 1, first = fields & ~second;
  const uint32_t q1 = q.pairs & first, q2 = q.pairs & second;
  a.region_cubes = q.count;
  // The kept cubes only: after a list's header (which holds no square), before the list.
  const uint32_t end = cubes_end(h, c, q.count);
  for (uint32_t j = end < q.count ? 1 : 0; j < end; ++j) {
    if (a.cube < 0 && (c[j] & q.pairs) == q.pairs) a.cube = int(j);
    a.first_square_held = a.first_square_held || (c[j] & q1) == q1;
    a.second_square_held = a.second_square_held || (c[j] & q2) == q2;
  }
  return a;
}

logic::CubeWord RegionIndex::find(uint64_t index, std::span<const logic::CubeWord> cubes) const {
  if (!built() || first_id_.empty()) return 0;
  const int inputs = inputs_for(k_);
  uint32_t r = uint32_t(index >> stm_shift(k_)) & 1;
  for (int slot : fixed_) r = r << kSquareBits | (uint32_t(index >> square_shift(k_, slot)) & kSquareMask);
  const logic::CubeWord m = logic::minterm(index, inputs);
  for (uint32_t j = first_id_[r]; j < first_id_[r + 1]; ++j)
    if (ids_[j] != kNoCoverCube && logic::contains(cubes[ids_[j]], m)) return cubes[ids_[j]];
  return 0;
}

}  // namespace egtmin::probe
