// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace egtmin {

// The machine in the general terms benchmarks name it by: cores, the CPU's model name with its
// family and model numbers (a virtual machine's model name is often just "AMD EPYC", which
// covers chips whose caches and vector units differ) and whether it has AVX-512, and memory:
// "2-core AMD EPYC (family 25, model 1, no AVX-512), 24 GiB". Read from /proc; parts it cannot
// read are left out or say "unknown".
std::string describe_host();
// The same from the text of /proc/cpuinfo and /proc/meminfo and the number of cores.
std::string describe_host(const std::string& cpuinfo, const std::string& meminfo, unsigned cores);

}  // namespace egtmin
