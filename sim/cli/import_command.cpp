#include "sim/cli/import_command.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <unordered_map>
#include <vector>

#include "models/trace/clock.hpp"
#include "models/trace/export_csv.hpp"
#include "models/trace/hosts.hpp"
#include "models/trace/trace.hpp"
#include "sim/cli/command_line.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/report.hpp"

namespace goodput {

namespace {

// --out must be new, or a file goodput import wrote (its first line is kImportMarker).
void check_out(const std::string& out) {
  namespace fs = std::filesystem;
  const fs::path parent = fs::path(out).parent_path();
  if (!parent.empty() && !fs::is_directory(parent))
    throw InputError("--out", "", out + ": the folder " + parent.string() + " does not exist");
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(out, ec);
  if (!fs::exists(st)) return;
  if (fs::is_symlink(st))
    throw InputError("--out", "", out + " is a symbolic link; give a new file name");
  if (!fs::is_regular_file(st))
    throw InputError("--out", "", out + " exists and is not a regular file; give a new file name");
  std::ifstream in(out, std::ios::binary);
  std::string first;
  std::getline(in, first);
  if (first.rfind(kImportMarker, 0) != 0)
    throw InputError("--out", "",
                     out +
                         " exists and goodput import did not write it; goodput never overwrites "
                         "files it did not write: give a new file name");
}

trace::ReadOptions read_options(const ImportArgs& a) {
  trace::ReadOptions o;
  if (a.system >= 0) o.lanl_system = a.system;
  o.hosts_file = a.hosts;
  o.host_pattern = a.host_pattern;
  o.host_index_offset = a.host_offset;
  o.time_zone = a.time_zone;
  o.start = a.start;
  if (!a.host_pattern.empty())
    if (const auto problem = trace::host_pattern_problem(a.host_pattern))
      throw InputError("--host-pattern", "", *problem);
  const auto zone = trace::parse_utc_offset(a.time_zone);
  if (!a.time_zone.empty() && !zone)
    throw InputError("--time-zone", "", "expected Z or an offset such as +02:00 or -05:00");
  if (!a.start.empty() && !trace::parse_iso_time(a.start, zone.value_or(0)))
    throw InputError("--start", "", "expected an ISO 8601 time such as 2026-03-01T00:00:00Z");
  return o;
}

}  // namespace

CLI::App* add_import(CLI::App& app, ImportArgs& a) {
  auto* cmd = app.add_subcommand(
      "import",
      "convert a failure log (an operator's event log, Slurm or Kubernetes node events, LANL, "
      "...) into goodput's trace CSV, hosts mapped to components");
  cmd->add_option("input", a.input, "the log file")->required();
  one_of(cmd->add_option("--format", a.format, "the log's format (models/trace/README.md)")
             ->required(),
         trace::format_names());
  cmd->add_option("--out", a.out,
                  "the CSV to write (new, or one goodput import wrote); - for stdout")
      ->required();
  cmd->add_option("--hosts", a.hosts,
                  "host map: a CSV of host,component lines (e.g. gpu-node-017,node/16)");
  cmd->add_option("--host-pattern", a.host_pattern,
                  "regular expression matching whole host names, one capture group giving the "
                  "node index (e.g. 'gpu-node-0*([0-9]+)')");
  cmd->add_option("--host-offset", a.host_offset,
                  "added to the --host-pattern node index (e.g. -1 when hosts count from 1)");
  cmd->add_option("--time-zone", a.time_zone,
                  "zone of timestamps that give none: Z or +HH:MM (default UTC)");
  cmd->add_option("--start", a.start,
                  "ISO 8601 time that hours count from (default: the earliest event)");
  cmd->add_option("--system", a.system, "LANL system number (lanl-csv)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_flag("--quiet", a.quiet, "print nothing on success (notes included)");
  return cmd;
}

int command_import(const ImportArgs& a) {
  const trace::ReadOptions options = read_options(a);
  const trace::TraceFormat& format = trace::parse_format(a.format, "--format", "");
  if (a.out != "-") check_out(a.out);
  const trace::Trace tr = trace::read_trace(a.input, format, options);
  // Paired as a replay pairs them (any component id exists here), so an end without its start
  // is refused now rather than when the CSV is replayed.
  std::unordered_map<std::string, std::uint32_t> ids;
  const auto faults = trace::pair_faults(tr, [&](const std::string& c) {
    return std::optional<std::uint32_t>(
        ids.try_emplace(c, static_cast<std::uint32_t>(ids.size())).first->second);
  });
  std::vector<std::string> comments = {std::string(kImportMarker + 2) + " " + kToolVersion +
                                       " from " + a.input + " (format " + a.format + ")"};
  if (format.takes_hosts)
    comments.push_back("times in hours since " +
                       (a.start.empty() ? std::string("the earliest event of the log") : a.start));
  const std::string text = trace::to_goodput_csv(tr, comments);
  if (a.out == "-")
    std::cout << text << std::flush;
  else
    write_file_atomic(a.out, text);  // Ctrl-C waits for it: no temporary is left beside it
  if (a.quiet) return 0;
  const auto overlaps = trace::overlapping_records(tr);
  constexpr std::size_t kShown = 10;
  for (std::size_t i = 0; i < overlaps.size() && i < kShown; ++i)
    std::cerr << "note: " << a.input << ": " << overlaps[i].start_locator << ": a fault on "
              << overlaps[i].component << " starts while the one of " << overlaps[i].open_locator
              << " is open; a replay merges overlapping records into one fault\n";
  if (overlaps.size() > kShown)
    std::cerr << "note: " << overlaps.size() - kShown << " more overlapping records\n";
  std::cerr << "goodput import: "
            << count_text(static_cast<long>(tr.events.size()), "event", "events") << ", "
            << count_text(static_cast<long>(faults.size()), "fault", "faults") << " on "
            << count_text(static_cast<long>(ids.size()), "component", "components") << ", "
            << tr.span_hours << " h -> " << (a.out == "-" ? "stdout" : a.out) << "\n";
  return 0;
}

}  // namespace goodput
