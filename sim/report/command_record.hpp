// The command that reproduced an output, as recorded in it: report.json and sweep.json carry
// {"args": [...], "line": "..."} under "command"; report.md ends its set-up with the line. The
// arguments come from the command line's canonical form (sim/cli/command_line.hpp): only those
// that change results, so the record does not depend on --threads, --out or the program used.
#pragma once

#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace goodput {

// One POSIX shell line: each argument single-quoted when it holds anything but safe characters.
std::string shell_line(const std::vector<std::string>& args);
// {"args": args, "line": shell_line(args)}.
Json command_json(const std::vector<std::string>& args);
// "- Command: `...`\n" for report.md's set-up list; empty when no command was recorded.
std::string command_markdown(const std::vector<std::string>& args);
// The same as a note for report.html; empty when none was recorded.
std::string command_html(const std::vector<std::string>& args);

}  // namespace goodput
