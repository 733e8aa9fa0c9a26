// SPDX-License-Identifier: GPL-3.0-or-later
// Core's enums as the GUI shows them: the name from the enum's one table (util/enum_names.hpp),
// so a label in a panel reads exactly as the CLI prints it.
#pragma once

#include <QString>
#include <string_view>

#include "util/enum_names.hpp"

namespace egtmin::ui {

template <class E>
QString enumText(E e) {
  const std::string_view name = name_of(e);
  return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

}  // namespace egtmin::ui
