// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/pla.hpp"

#include <bit>
#include <charconv>
#include <vector>

#include "chess/types.hpp"

namespace egtmin::logic {

namespace {
constexpr const char* kOutputLabels = "win draw loss";

// The labels of kOutputLabels by Output (index 0 unused).
constexpr std::string_view kPlaOutputNames[4] = {"none", "win", "draw", "loss"};

std::string header_text(const Encoding& enc, CanonScheme scheme, const char* type, uint64_t rows,
                        Output implied = Output::None) {
  std::string s = "# egtmin balance=" + enc.balance().name() + " canon=" + std::string(name_of(scheme));
  // A cover's implied output has no rows: espresso would read those positions as off, egtmin's
  // import restores the output from here.
  if (implied != Output::None) s += " implied=" + std::string(kPlaOutputNames[size_t(implied)]);
  s += "\n";
  s += ".i " + std::to_string(enc.bits()) + "\n.o 3\n";
  s += ".ilb " + pla_input_labels(enc) + "\n.ob " + kOutputLabels + "\n";
  s += ".type " + std::string(type) + "\n.p " + std::to_string(rows) + "\n";
  return s;
}

void append_row(std::string& s, CubeWord c, int n) {
  for (int i = 0; i < n; ++i) {
    unsigned p = unsigned(c >> pair_shift(i)) & 3;
    s += p == 2 ? '0' : p == 1 ? '1' : '-';
  }
  switch (output_of(c)) {
    case Output::Win: s += " 100\n"; break;
    case Output::Draw: s += " 010\n"; break;
    case Output::Loss: s += " 001\n"; break;
    default: s += " 000\n"; break;
  }
}
}  // namespace

std::string pla_input_labels(const Encoding& enc) {
  static constexpr char kLetters[] = "KQRBNP";
  std::string s = "stm";
  Balance b = enc.balance();
  std::vector<Piece> order = b.piece_order();
  for (int i = 0; i < enc.pieces(); ++i) {
    Piece p = order[i];
    char color = int(p) < 6 ? 'w' : 'b';
    // Piece numbering follows encoding order; the letter comes from the balance's piece order.
    char letter = kLetters[int(p) % 6];
    for (int bit = kSquareBits - 1; bit >= 0; --bit) {
      s += ' ';
      s += color;
      s += letter;
      s += std::to_string(i);
      s += '_';
      s += char('0' + bit);
    }
  }
  return s;
}

std::string write_pla_cover(const Encoding& enc, const Cover& cover, CanonScheme scheme, Output implied) {
  std::string s = header_text(enc, scheme, "fd", cover.size(), implied);
  for (CubeWord c : cover) append_row(s, c, enc.bits());
  s += ".e\n";
  return s;
}

void write_pla_function(const Encoding& enc, const CareFunction& f, const std::function<void(std::string_view)>& sink) {
  sink(header_text(enc, f.scheme(), "fr", f.care_count()));
  std::string buf;
  const int n = f.inputs();
  for (int s = 0; s < kOutputs; ++s) {
    Output o = slot_output(s);
    const auto& words = f.on(o).words();
    for (uint64_t w = 0; w < words.size(); ++w)
      for (uint64_t bits = words[w]; bits; bits &= bits - 1) {
        append_row(buf, minterm((w << 6) | uint64_t(std::countr_zero(bits)), n, o), n);
        if (buf.size() > (1u << 20)) {
          sink(buf);
          buf.clear();
        }
      }
  }
  buf += ".e\n";
  sink(buf);
}

Result<PlaContent> parse_pla(std::string_view text, const std::string& origin, int expected_inputs) {
  PlaContent out;
  int64_t declared_rows = -1;
  bool ended = false;
  size_t line_no = 0;
  size_t pos = 0;
  auto err = [&](const std::string& what) { return Error{origin + ":" + std::to_string(line_no) + ": " + what}; };
  auto number = [](std::string_view s, int64_t& v) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size() && v >= 0;
  };
  while (pos < text.size() && !ended) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    if (line.front() == '#') {
      // Our own provenance comment.
      if (line.starts_with("# egtmin ")) {
        std::string_view rest = line.substr(9);
        while (!rest.empty()) {
          size_t sp = rest.find(' ');
          std::string_view kv = rest.substr(0, sp);
          if (kv.starts_with("balance=")) out.header.balance = std::string(kv.substr(8));
          if (kv.starts_with("canon=")) {
            auto c = parse_canon(kv.substr(6));
            if (!c) return err(c.error().message);
            out.header.canon = *c;
          }
          if (kv.starts_with("implied=")) {
            const auto* o = std::find(std::begin(kPlaOutputNames) + 1, std::end(kPlaOutputNames), kv.substr(8));
            if (o == std::end(kPlaOutputNames))
              return err("unknown implied output '" + std::string(kv.substr(8)) + "'");
            out.header.implied = Output(o - std::begin(kPlaOutputNames));
          }
          if (sp == std::string_view::npos) break;
          rest.remove_prefix(sp + 1);
        }
      }
      continue;
    }
    if (line.front() == '.') {
      size_t sp = line.find_first_of(" \t");
      std::string_view key = line.substr(0, sp);
      std::string_view arg = sp == std::string_view::npos ? std::string_view() : line.substr(sp + 1);
      int64_t v = 0;
      if (key == ".i") {
        if (!number(arg, v) || v < 1 || v > kMaxInputs) return err(".i needs a number of inputs between 1 and 31");
        if (expected_inputs > 0 && v != expected_inputs)
          return err(".i " + std::to_string(v) + " does not match the balance's " + std::to_string(expected_inputs) +
                     " inputs");
        out.inputs = int(v);
      } else if (key == ".o") {
        if (!number(arg, v) || v != 3) return err(".o must be 3 (one-hot win, draw, loss)");
        out.outputs = int(v);
      } else if (key == ".p") {
        if (!number(arg, v)) return err(".p needs a row count");
        declared_rows = v;
      } else if (key == ".type") {
        std::string t(arg);
        while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
        if (t != "f" && t != "fd" && t != "fr" && t != "fdr")
          return err("unsupported .type \"" + t + "\" (f, fd, fr, fdr)");
        out.type = t;
      } else if (key == ".ilb" || key == ".ob") {
        // Labels are informational.
      } else if (key == ".e" || key == ".end") {
        ended = true;
      } else {
        return err("unsupported keyword \"" + std::string(key) + "\"");
      }
      continue;
    }
    // A row: inputs then outputs, whitespace anywhere.
    if (out.inputs == 0) return err("row before .i");
    if (out.outputs == 0) return err("row before .o");
    std::string chars;
    for (char ch : line) {
      if (ch == ' ' || ch == '\t' || ch == '|') continue;
      chars += ch;
    }
    if (int(chars.size()) != out.inputs + out.outputs)
      return err("row has " + std::to_string(chars.size()) + " symbols, expected " +
                 std::to_string(out.inputs + out.outputs) + " (.i " + std::to_string(out.inputs) + " + .o " +
                 std::to_string(out.outputs) + ")");
    CubeWord c = kInputMask;
    for (int i = 0; i < out.inputs; ++i) {
      char ch = chars[i];
      CubeWord pair;
      if (ch == '0')
        pair = 2;
      else if (ch == '1')
        pair = 1;
      else if (ch == '-' || ch == 'x' || ch == 'X' || ch == '2')
        pair = 3;
      else
        return err(std::string("unexpected character '") + ch + "' in input " + std::to_string(i + 1));
      c = (c & ~pair_mask(i)) | (pair << pair_shift(i));
    }
    for (int j = 0; j < out.outputs; ++j) {
      char ch = chars[out.inputs + j];
      if (ch == '1' || ch == '4')
        out.on.push_back(with_output(c, slot_output(j)));
      else if (ch != '0' && ch != '-' && ch != '~' && ch != '2' && ch != '3')
        return err(std::string("unexpected character '") + ch + "' in output " + std::to_string(j + 1));
    }
    ++out.rows;
  }
  if (out.inputs == 0) return Error{origin + ": no .i line (not a PLA file?)"};
  if (out.outputs == 0) return Error{origin + ": no .o line"};
  if (declared_rows >= 0 && uint64_t(declared_rows) != out.rows)
    return Error{origin + ":" + std::to_string(line_no) + ": truncated or inconsistent: .p declares " +
                 std::to_string(declared_rows) + " rows, found " + std::to_string(out.rows)};
  return out;
}

}  // namespace egtmin::logic
