// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/table.hpp"

#include <lzma.h>

#include <cstring>
#include <fstream>
#include <numeric>

#include "util/atomic_file.hpp"

namespace egtmin {

const char* wdl_meaning(Wdl v) {
  switch (v) {
    case Wdl::Win: return "won within the 50-move rule";
    case Wdl::CursedWin: return "won with best play, but not before the 50-move rule makes it a draw";
    case Wdl::Draw: return "a draw with best play";
    case Wdl::BlessedLoss: return "lost with best play, but the 50-move rule saves it as a draw";
    case Wdl::Loss: return "lost within the 50-move rule";
    default: return "not a legal position of the table";
  }
}

uint64_t Table::Counts::legal() const { return std::accumulate(by_code.begin() + 1, by_code.end(), uint64_t{0}); }

Table::Table(const Balance& b)
    : enc_(b), sym_(enc_), cells_((sym_.domain_size() + kSlotsPerWord - 1) / kSlotsPerWord, 0) {}

Wdl Table::value(const Position& pos) const {
  auto p = enc_.placement(pos);
  return p ? value(*p) : Wdl::Illegal;
}

Table::Counts Table::counts() const {
  Counts c;
  for (uint64_t s = 0; s < slots(); ++s) ++c.by_code[size_t(at_slot(s))];
  c.by_code[size_t(Wdl::Illegal)] = 0;
  return c;
}

// Layout (little-endian): magic "EGTMTBL1", u32 format version, u32 piece count, char[16] balance
// name (NUL padded), u64 slot count, u64 CRC-64 of the cells, then the cells as u64 words.
namespace {
constexpr char kMagic[8] = {'E', 'G', 'T', 'M', 'T', 'B', 'L', '1'};
// Version 2: five values in four bits per slot (version 1 had win/draw/loss in two).
constexpr uint32_t kVersion = 2;
constexpr size_t kHeader = 8 + 4 + 4 + 16 + 8 + 8;

template <class T>
T get(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
}  // namespace

std::vector<uint8_t> Table::serialize() const {
  const size_t payload = cells_.size() * 8;
  std::vector<uint8_t> out(kHeader + payload, 0);
  uint8_t* h = out.data();
  const uint32_t version = kVersion, pieces = uint32_t(enc_.pieces());
  const uint64_t slot_count = slots();
  const std::string n = balance().name();
  const auto* cells = reinterpret_cast<const uint8_t*>(cells_.data());
  const uint64_t crc = lzma_crc64(cells, payload, 0);
  std::memcpy(h, kMagic, 8);
  std::memcpy(h + 8, &version, 4);
  std::memcpy(h + 12, &pieces, 4);
  std::memcpy(h + 16, n.data(), std::min<size_t>(n.size(), 15));
  std::memcpy(h + 32, &slot_count, 8);
  std::memcpy(h + 40, &crc, 8);
  std::memcpy(h + kHeader, cells, payload);
  return out;
}

Result<Table> Table::deserialize(std::span<const uint8_t> bytes, const std::string& origin) {
  auto fail = [&](const std::string& why) { return Error{origin + ": " + why}; };
  if (bytes.size() < kHeader)
    return fail("too short to be an egtmin table (" + std::to_string(bytes.size()) + " bytes)");
  if (std::memcmp(bytes.data(), kMagic, 8) != 0) return fail("not an egtmin table (bad magic)");
  uint32_t version = get<uint32_t>(bytes.data() + 8);
  char name[17] = {};
  std::memcpy(name, bytes.data() + 16, 16);
  if (version != kVersion)
    return fail("table format version " + std::to_string(version) + " is not supported (expected " +
                std::to_string(kVersion) +
                (version < kVersion ? ", which adds the 50-move rule's cursed wins and blessed losses" : "") +
                "); regenerate it with: egtmin-cli gen " + std::string(name));
  auto b = Balance::parse(name);
  if (!b) return fail(b.error().message);
  // The header and the size are checked before the table is allocated: a damaged or hostile
  // header naming a big balance must not make the reader ask for terabytes.
  const Encoding enc(*b);
  const uint64_t slots = Symmetry(enc).domain_size();
  if (get<uint32_t>(bytes.data() + 12) != uint32_t(enc.pieces())) return fail("piece count does not match the balance");
  if (get<uint64_t>(bytes.data() + 32) != slots) return fail("slot count does not match the balance");
  const uint64_t payload = (slots + kSlotsPerWord - 1) / kSlotsPerWord * 8;
  if (bytes.size() - kHeader != payload)
    return fail("size is " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(kHeader + payload) +
                " (truncated or padded)");
  Table t(*b);
  const uint8_t* cells = bytes.data() + kHeader;
  if (lzma_crc64(cells, payload, 0) != get<uint64_t>(bytes.data() + 40)) return fail("checksum mismatch (corrupted)");
  std::memcpy(t.cells_.data(), cells, payload);
  return t;
}

Status Table::save(const std::filesystem::path& path) const {
  auto bytes = serialize();
  return write_file_atomically(path, bytes);
}

bool Table::is_older_format(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  uint8_t header[12] = {};
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return false;
  return std::memcmp(header, kMagic, 8) == 0 && get<uint32_t>(header + 8) < kVersion;
}

Result<Table> Table::load(const std::filesystem::path& path) {
  auto bytes = read_file(path);
  if (!bytes) return bytes.error();
  return deserialize(*bytes, path.string());
}

std::string value_counts_text(const Table::Counts& c) {
  std::string out;
  for (Wdl v : {Wdl::Win, Wdl::CursedWin, Wdl::Draw, Wdl::BlessedLoss, Wdl::Loss}) {
    if (!out.empty()) out += ", ";
    out += std::to_string(c.of(v)) + " " + std::string(name_of(v));
  }
  return out;
}

}  // namespace egtmin
