// `goodput diff A B [--json]`: compares two run reports (report.json files or the folders of
// goodput run holding them, with their runs.csv) and prints the comparison as Markdown on stdout
// (sim/report/report_diff.hpp says what is compared and when it is paired), or as JSON with
// --json. Writes no file. Bad input: an InputError naming the file and the field (exit 2).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace goodput {

struct DiffArgs {
  std::string a, b;
  bool json = false;
};

CLI::App* add_diff(CLI::App& app, DiffArgs& args);
int command_diff(const DiffArgs& args);

}  // namespace goodput
