// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli: every core feature from the command line. Thin: parse, call core, print (app.cpp).
#include "app.hpp"

int main(int argc, char** argv) { return egtmin::cli::run(argc, argv); }
