// SPDX-License-Identifier: GPL-3.0-or-later
// The one way an enum is spelled in text (flags, files, JSON, messages): beside each such enum, a
// table of its values and their names, and a function that hands the table out,
//
//   inline constexpr EnumName<CanonScheme> kCanonSchemeNames[] = {{CanonScheme::None, "none"}, ...};
//   constexpr std::span<const EnumName<CanonScheme>> enum_names(CanonScheme) { return kCanonSchemeNames; }
//
// found by argument-dependent lookup. name_of(e) and parse_enum<E>(text) read that one table, so
// the name a value is printed with and the text that parses back to it cannot drift apart.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace egtmin {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

// The value's name ("?" for a value the table does not list, such as a code read from a bad file).
template <class E>
constexpr std::string_view name_of(E e) {
  for (const EnumName<E>& n : enum_names(E{}))
    if (n.value == e) return n.name;
  return "?";
}

// The value of that name (exact spelling), or nothing.
template <class E>
constexpr std::optional<E> parse_enum(std::string_view name) {
  for (const EnumName<E>& n : enum_names(E{}))
    if (n.name == name) return n.value;
  return std::nullopt;
}

// The value of that name, or an error naming the text and listing the valid names:
// "unknown region policy 'sometimes' (never, auto or always)" for what = "region policy".
template <class E>
Result<E> parse_named(std::string_view name, std::string_view what);

// Every name in the table's order, for messages and help: "none, board or full" (or, with
// last_separator ", ", "none, board, full").
template <class E>
std::string enum_names_text(std::string_view last_separator = " or ") {
  const std::span<const EnumName<E>> names = enum_names(E{});
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? last_separator : std::string_view(", ");
    out += names[i].name;
  }
  return out;
}

template <class E>
Result<E> parse_named(std::string_view name, std::string_view what) {
  if (const std::optional<E> e = parse_enum<E>(name)) return *e;
  return Error{"unknown " + std::string(what) + " '" + std::string(name) + "' (" + enum_names_text<E>() + ")"};
}

}  // namespace egtmin
