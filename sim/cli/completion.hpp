// `goodput completion bash|zsh|fish`: a shell completion script generated from the CLI11 app as
// registered (its subcommands, each one's flags, whether a flag takes a value, and the choices
// one_of recorded, command_line.hpp), so it cannot drift from the command line. Hidden options
// (group "") are left out. Values without declared choices (scenario files, --out folders) are
// left to the shell's file-name completion; a flag whose value starts with a scenario JSON
// pointer (takes_pointer) completes the scenario's declared keys.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace goodput {

const std::vector<std::string>& completion_shells();  // bash, zsh, fish
// `program`: the command completed ("goodput"). `shell`: one of completion_shells().
// `pointers`: the scenario's keys, offered after the flags marked takes_pointer (--set, --axis,
// --seek, --param).
std::string completion_script(CLI::App& app, const std::string& program, const std::string& shell,
                              const std::vector<std::string>& pointers = {});

}  // namespace goodput
