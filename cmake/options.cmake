# SPDX-License-Identifier: GPL-3.0-or-later
# One interface target carries the project's warnings and flags; every target links it.
add_library(egtmin_options INTERFACE)
target_compile_options(egtmin_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  $<$<CONFIG:Release>:-O3 -march=x86-64-v2>)
if(EGTMIN_SANITIZE)
  target_compile_options(egtmin_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(egtmin_options INTERFACE -fsanitize=address,undefined)
endif()
if(EGTMIN_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "EGTMIN_FUZZ needs clang (libFuzzer): configure with CXX=clang++ CC=clang")
  endif()
  target_compile_options(egtmin_options INTERFACE -fsanitize=fuzzer-no-link)
endif()

# Instrumented builds (scripts/sanitize.sh, scripts/tsan-gui.sh) run the same tests several times
# slower: every test's time limit is multiplied by this (egtmin_test_timeout).
set(EGTMIN_TEST_TIMEOUT_SCALE 1 CACHE STRING "Multiplier of every test's time limit")
function(egtmin_test_timeout out seconds)
  math(EXPR scaled "${seconds} * ${EGTMIN_TEST_TIMEOUT_SCALE}")
  set(${out} ${scaled} PARENT_SCOPE)
endfunction()
