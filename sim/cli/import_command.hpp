// `goodput import --format F [--hosts MAP] [--host-pattern RE] [--host-offset N] [--time-zone Z]
// [--start TIME] [--system N] INPUT --out FILE`: reads a failure log in any registered trace
// format (models/trace: operator logs, Slurm node events, Kubernetes node events, LANL, ...) and
// writes it as goodput's own CSV (hours since the start, component ids), which a scenario replays
// with format csv. The events are paired first, so an end without a start is an error here too
// (exit 2, naming the line or JSON pointer); records that overlap on one component are listed on
// stderr as notes (a replay merges them into one fault). --out - writes to stdout. An existing
// --out is replaced only when goodput import wrote it (its first line says so): goodput never
// overwrites a file it did not write. Throws InputError for bad input (exit 2).
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace goodput {

struct ImportArgs {
  std::string input, out, format;
  std::string hosts, host_pattern, time_zone, start;
  std::int64_t host_offset = 0;
  int system = -1;
  bool quiet = false;
};

// The first line of every file goodput import writes; an --out starting with it may be replaced.
inline constexpr const char* kImportMarker = "# written by goodput import";

CLI::App* add_import(CLI::App& app, ImportArgs& args);
int command_import(const ImportArgs& args);

}  // namespace goodput
