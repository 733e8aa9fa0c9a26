// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/region_frames.hpp"

// ZDICT_trainFromBuffer_cover: exported by Debian's libzstd, declared among the advanced API.
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
// ZSTD_c_literalCompressionMode: an advanced parameter, which Debian's libzstd takes.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <new>
#include <string>

namespace egtmin::probe {

namespace {

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct CDictFree {
  void operator()(ZSTD_CDict* d) const { ZSTD_freeCDict(d); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};
struct DDictFree {
  void operator()(ZSTD_DDict* d) const { ZSTD_freeDDict(d); }
};

constexpr size_t kHeaderWords = 5;

size_t words_for(size_t bytes) { return (bytes + 7) / 8; }

// Each frame's bytes, as encode lays them out: its directory blocks, then its cubes. Made once:
// every dictionary tried trains on them and compresses them.
std::vector<std::vector<uint8_t>> frame_contents(std::span<const uint8_t> directory, std::span<const uint32_t> cubes,
                                                 std::span<const uint32_t> first, uint32_t blocks_a_frame) {
  std::vector<std::vector<uint8_t>> out;
  const size_t block_bytes = RegionFrames::kBlockBytes;
  for (size_t f = 0; f + 1 < first.size(); ++f) {
    const size_t b0 = f * blocks_a_frame * block_bytes,
                 b1 = std::min(directory.size(), b0 + blocks_a_frame * block_bytes);
    const auto c = std::as_bytes(cubes.subspan(first[f], first[f + 1] - first[f]));
    std::vector<uint8_t>& frame =
        out.emplace_back(directory.begin() + ptrdiff_t(b0), directory.begin() + ptrdiff_t(b1));
    const auto* p = reinterpret_cast<const uint8_t*>(c.data());
    frame.insert(frame.end(), p, p + c.size());
  }
  return out;
}

// The frames compressed with `dict` (empty: none), one after another, and where each starts (then
// the end).
struct Compressed {
  std::vector<uint8_t> data;
  std::vector<uint32_t> offset;
};
Compressed compress(const std::vector<std::vector<uint8_t>>& frames, std::span<const uint8_t> dict,
                    FrameLiterals literals) {
  std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx(ZSTD_createCCtx());
  std::unique_ptr<ZSTD_CDict, CDictFree> cdict;
  if (!dict.empty()) cdict.reset(ZSTD_createCDict(dict.data(), dict.size(), RegionFrames::kLevel));
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, RegionFrames::kLevel);
  // The layout's checksum covers the frames and its first cubes give their sizes: neither a
  // frame's checksum nor its content size nor the dictionary's id is stored.
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 0);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, 0);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_dictIDFlag, 0);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_literalCompressionMode,
                         literals == FrameLiterals::Raw ? ZSTD_ps_disable : ZSTD_ps_auto);
  if (cdict) ZSTD_CCtx_refCDict(cctx.get(), cdict.get());
  Compressed out;
  std::vector<uint8_t> buf;
  for (const std::vector<uint8_t>& frame : frames) {
    out.offset.push_back(uint32_t(out.data.size()));
    buf.resize(ZSTD_compressBound(frame.size()));
    const size_t n = ZSTD_compress2(cctx.get(), buf.data(), buf.size(), frame.data(), frame.size());
    // Compressing into a bound-sized buffer fails only without memory, as a vector would.
    if (ZSTD_isError(n)) throw std::bad_alloc();
    out.data.insert(out.data.end(), buf.begin(), buf.begin() + std::ptrdiff_t(n));
  }
  out.offset.push_back(uint32_t(out.data.size()));
  return out;
}

// A dictionary of at most `capacity` bytes trained on the frames (empty when training fails, as it
// does with too few or too small frames: then none helps).
std::vector<uint8_t> train(const std::vector<std::vector<uint8_t>>& frames, size_t capacity) {
  std::vector<uint8_t> samples;
  std::vector<size_t> sizes;
  for (const std::vector<uint8_t>& frame : frames) {
    samples.insert(samples.end(), frame.begin(), frame.end());
    sizes.push_back(frame.size());
  }
  std::vector<uint8_t> dict(capacity);
  // COVER with segments of 1,024 bytes and 8-byte d-mers: smaller frames than the default
  // trainer's (fastCover) on KBNvKB's, near what COVER's own search of k and d gives, in a
  // fraction of its time (docs/measured.md).
  ZDICT_cover_params_t params{};
  params.k = 1024;
  params.d = 8;
  params.zParams.compressionLevel = RegionFrames::kLevel;
  const size_t n = ZDICT_trainFromBuffer_cover(dict.data(), dict.size(), samples.data(), sizes.data(),
                                               unsigned(sizes.size()), params);
  if (ZDICT_isError(n)) return {};
  dict.resize(n);
  return dict;
}

}  // namespace

struct RegionFrames::Dictionary {
  std::unique_ptr<ZSTD_DDict, DDictFree> ddict;
};

RegionFrames::~RegionFrames() = default;

std::vector<uint64_t> RegionFrames::encode(std::span<const uint8_t> directory, std::span<const uint32_t> cubes,
                                           std::span<const uint32_t> first, Framing framing) {
  const std::vector<std::vector<uint8_t>> in = frame_contents(directory, cubes, first, framing.blocks_a_frame);
  const size_t bytes = directory.size() + (first.empty() ? 0 : (first.back() - first.front()) * sizeof(uint32_t));
  // The smallest of the dictionaries tried, dictionary bytes counted.
  std::vector<uint8_t> best_dict;
  Compressed best;
  bool have = false;
  for (size_t capacity : kDictionaryBytes) {
    // A dictionary is worth training on at least 4 times its bytes of frames (KBNvKB's 128 KiB
    // dictionary pays on 6 times).
    if (capacity && capacity * 4 > bytes) continue;
    std::vector<uint8_t> dict = capacity ? train(in, capacity) : std::vector<uint8_t>{};
    if (capacity && dict.empty()) continue;
    Compressed c = compress(in, dict, framing.literals);
    if (!have || dict.size() + c.data.size() < best_dict.size() + best.data.size()) {
      best_dict = std::move(dict);
      best = std::move(c);
      have = true;
    }
  }
  const uint64_t frames = first.empty() ? 0 : first.size() - 1;
  std::vector<uint64_t> words(kHeaderWords + words_for(2 * first.size() * sizeof(uint32_t)) +
                                  words_for(best_dict.size()) + words_for(best.data.size()),
                              0);
  words[0] = frames;
  words[1] = framing.blocks_a_frame;
  words[2] = directory.size() / kBlockBytes;
  words[3] = best_dict.size();
  words[4] = best.data.size();
  auto* out = reinterpret_cast<uint8_t*>(words.data() + kHeaderWords);
  std::memcpy(out, first.data(), first.size_bytes());
  std::memcpy(out + first.size_bytes(), best.offset.data(), best.offset.size() * sizeof(uint32_t));
  out += words_for(2 * first.size_bytes()) * 8;
  if (!best_dict.empty()) std::memcpy(out, best_dict.data(), best_dict.size());
  out += words_for(best_dict.size()) * 8;
  if (!best.data.empty()) std::memcpy(out, best.data.data(), best.data.size());
  return words;
}

Result<std::unique_ptr<RegionFrames>> RegionFrames::attach(std::span<const uint64_t> words) {
  if (words.size() < kHeaderWords) return Error{"region frames: too short"};
  const uint64_t frames = words[0], blocks_a_frame = words[1], blocks = words[2], dict_bytes = words[3],
                 data_bytes = words[4];
  if (blocks_a_frame == 0 || blocks_a_frame > kMostBlocksAFrame || !std::has_single_bit(blocks_a_frame))
    return Error{"region frames: " + std::to_string(blocks_a_frame) + " directory blocks a frame"};
  // Each count at most what the words could hold (so the sums below cannot wrap).
  const uint64_t room = (words.size() - kHeaderWords) * 8;
  if (frames == 0 || frames >= room / 8 || dict_bytes > room || data_bytes > room || data_bytes > UINT32_MAX)
    return Error{"region frames: damaged counts"};
  if (blocks > UINT32_MAX || (blocks + blocks_a_frame - 1) / blocks_a_frame != frames)
    return Error{"region frames: " + std::to_string(blocks) + " directory blocks in " + std::to_string(frames) +
                 " frames"};
  const size_t table_words = words_for(2 * (frames + 1) * sizeof(uint32_t));
  if (kHeaderWords + table_words + words_for(dict_bytes) + words_for(data_bytes) != words.size())
    return Error{"region frames: parts do not add up"};
  std::unique_ptr<RegionFrames> rf(new RegionFrames);
  static std::atomic<uint64_t> next_id{1};
  rf->id_ = next_id.fetch_add(1);
  rf->frames_ = uint32_t(frames);
  rf->blocks_ = uint32_t(blocks);
  rf->block_shift_ = uint8_t(std::countr_zero(blocks_a_frame));
  rf->first_ = reinterpret_cast<const uint32_t*>(words.data() + kHeaderWords);
  rf->offset_ = rf->first_ + frames + 1;
  const auto* dict = reinterpret_cast<const uint8_t*>(words.data() + kHeaderWords + table_words);
  rf->data_ = dict + words_for(dict_bytes) * 8;
  rf->words_bytes_ = words.size_bytes();
  for (uint64_t f = 0; f < frames; ++f)
    if (rf->first_[f] > rf->first_[f + 1] || rf->offset_[f] > rf->offset_[f + 1])
      return Error{"region frames: frame " + std::to_string(f) + " ends before it starts"};
  if (rf->offset_[0] != 0 || rf->offset_[frames] != data_bytes) return Error{"region frames: damaged offsets"};
  rf->dict_ = std::make_unique<Dictionary>();
  if (dict_bytes) {
    rf->dict_->ddict.reset(ZSTD_createDDict(dict, dict_bytes));
    if (!rf->dict_->ddict) return Error{"region frames: damaged dictionary"};
  }
  std::vector<uint32_t> out;
  for (uint32_t f = 0; f < rf->frames_; ++f)
    if (!rf->decode(f, out)) return Error{"region frames: frame " + std::to_string(f) + " is damaged"};
  return rf;
}

bool RegionFrames::decode(uint32_t f, std::vector<uint32_t>& out) const {
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx(ZSTD_createDCtx());
  const size_t bytes = blocks_in(f) * kBlockBytes + size_t(first_[f + 1] - first_[f]) * sizeof(uint32_t);
  out.assign(bytes / sizeof(uint32_t) + kDecodedPad, 0);
  if (!dctx || ZSTD_DCtx_refDDict(dctx.get(), dict_->ddict.get()) != 0) return false;
  const size_t got =
      ZSTD_decompressDCtx(dctx.get(), out.data(), bytes, data_ + offset_[f], offset_[f + 1] - offset_[f]);
  return !ZSTD_isError(got) && got == bytes;
}

const uint32_t* RegionFrames::decoded(uint32_t f) const {
  // The last frames this thread decoded, a few per layout at once: a slot by frame and layout.
  struct Slot {
    uint64_t owner = 0;
    uint32_t frame = 0;
    std::vector<uint32_t> words;
  };
  thread_local std::array<Slot, 16> slots;
  Slot& s = slots[(f ^ id_ * 7) % slots.size()];
  if (s.owner != id_ || s.frame != f) {
    // attach() decoded every frame once: this cannot fail but for memory, which throws.
    decode(f, s.words);
    s.owner = id_;
    s.frame = f;
  }
  return s.words.data();
}

}  // namespace egtmin::probe
