// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "util/host.hpp"

namespace egtmin {
namespace {

TEST(Host, NamesCoresModelFamilyVectorUnitsAndMemory) {
  const std::string cpuinfo =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n"
      "flags\t\t: fpu sse2 avx2 bmi2\n\nprocessor\t: 1\nmodel name\t: AMD EPYC\n";
  const std::string meminfo = "MemTotal:       24589120 kB\nMemFree:        20000000 kB\n";
  EXPECT_EQ(describe_host(cpuinfo, meminfo, 2), "2-core AMD EPYC (family 25, model 1, no AVX-512), 23 GiB");
  const std::string avx512 =
      "cpu family\t: 6\nmodel\t\t: 106\nmodel name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n"
      "flags\t\t: fpu avx2 avx512f avx512bw\n";
  EXPECT_EQ(describe_host(avx512, "MemTotal: 25165824 kB\n", 4),
            "4-core Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz (family 6, model 106, AVX-512), 24 GiB");
  // What cannot be read is left out or says so; a count of 0 cores (unknown) is one.
  EXPECT_EQ(describe_host("", "", 0), "1-core unknown CPU");
  EXPECT_EQ(describe_host("model name : Some CPU\n", "", 8), "8-core Some CPU");
}

TEST(Host, DescribesThisMachine) {
  const std::string d = describe_host();
  EXPECT_NE(d.find("-core "), std::string::npos) << d;
}

}  // namespace
}  // namespace egtmin
