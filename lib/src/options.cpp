// SPDX-License-Identifier: GPL-3.0-or-later
#include "options.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "tablebase.hpp"

namespace egtmin::capi {

// The fields the caller's struct_size covers, the rest at their defaults. A struct_size below the
// first version's is refused (the options were not made with EGTMIN_OPTIONS_INIT), and so is a
// newer header's larger struct that sets an option past the ones this library has.
int read_options(const egtmin_options* given, egtmin_options& options) {
  options = egtmin_options EGTMIN_OPTIONS_INIT;
  if (!given) return EGTMIN_OK;
  constexpr size_t kFirstVersion = offsetof(egtmin_options, memory_cap) + sizeof(uint64_t);
  const size_t size = given->struct_size;
  if (size < kFirstVersion)
    return fail(EGTMIN_ERR_OPTIONS_SIZE, "egtmin_open: egtmin_options.struct_size is " + std::to_string(size) +
                                             ", less than the " + std::to_string(kFirstVersion) +
                                             " bytes of the first egtmin_options: initialize the options with "
                                             "EGTMIN_OPTIONS_INIT");
  const auto* bytes = reinterpret_cast<const unsigned char*>(given);
  for (size_t at = sizeof(egtmin_options); at < size; ++at)
    if (bytes[at] != 0)
      return fail(EGTMIN_ERR_OPTIONS_SIZE, "egtmin_open: egtmin_options of " + std::to_string(size) +
                                               " bytes sets an option this library (of " +
                                               std::to_string(sizeof(egtmin_options)) + " bytes) does not have");
  std::memcpy(&options, given, std::min(size, sizeof(egtmin_options)));
  options.struct_size = sizeof(egtmin_options);
  return EGTMIN_OK;
}

}  // namespace egtmin::capi
