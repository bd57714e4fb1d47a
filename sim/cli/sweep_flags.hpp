// The flags of `goodput sweep`, declared once for goodput and goodput-mpi (same names, docs,
// checks, and the same canonical command in the outputs). goodput-mpi has no goal seek and no
// work budget (Seek::No), and its --threads are per rank.
#pragma once

#include <string>

#include "sim/cli/sweep_command.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace goodput {

inline constexpr int kMaxThreads = 1024;  // more threads than this only cost memory

enum class SweepFlagSet { Local, Mpi };

// Adds the sweep's flags to `sweep` (a subcommand), bound to `args`.
void add_sweep_flags(CLI::App& sweep, SweepArgs& args, SweepFlagSet set);

}  // namespace goodput
