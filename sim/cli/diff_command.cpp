#include "sim/cli/diff_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "sim/report/report_diff.hpp"

namespace goodput {

CLI::App* add_diff(CLI::App& app, DiffArgs& a) {
  auto* cmd = app.add_subcommand(
      "diff",
      "compare two run reports (report.json or their folders): scenario differences, Goodput "
      "and badput B - A per strategy, paired over the same failures where the seeds match");
  cmd->add_option("a", a.a, "the first report: report.json or a goodput run output folder")
      ->required();
  cmd->add_option("b", a.b, "the second report, compared with the first (B - A)")->required();
  cmd->add_flag("--json", a.json, "print the comparison as JSON instead of Markdown");
  return cmd;
}

int command_diff(const DiffArgs& a) {
  const DiffSide first = read_diff_side(a.a);
  const DiffSide second = read_diff_side(a.b);
  const Json diff = report_diff_json(first, second);
  if (a.json)
    std::cout << diff.dump(2) << "\n";
  else
    std::cout << report_diff_markdown(diff);
  return 0;
}

}  // namespace goodput
