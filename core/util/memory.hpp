// SPDX-License-Identifier: GPL-3.0-or-later
// The process's memory as the kernel sees it (Linux /proc): its peak resident set, a fresh start
// for that peak so one stage of a long process can be measured on its own, and how much memory
// the machine can still give. Each returns 0 / false where the kernel does not tell.
#pragma once

#include <cstdint>
#include <string_view>

#include "util/result.hpp"

namespace egtmin {

// Process peak resident set size in bytes (VmHWM), 0 when unknown.
uint64_t peak_memory_bytes();

// Starts a new peak: VmHWM falls back to the present resident set (/proc/self/clear_refs). False
// when the kernel refuses.
bool reset_peak_memory();

// Memory a new allocation can get without swapping (MemAvailable in /proc/meminfo), 0 when
// unknown.
uint64_t available_memory_bytes();

// Physical memory of the machine (MemTotal), 0 when unknown.
uint64_t total_memory_bytes();

// "12G", "1.5GiB", "800M", "4096" (bytes): K, M, G, T are powers of 1024 (GiB and GB read the
// same), as memory is sold; an error names what it could not read.
Result<uint64_t> parse_byte_size(std::string_view text);

}  // namespace egtmin
