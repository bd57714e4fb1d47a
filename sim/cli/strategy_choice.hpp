// `--strategies a,b`: the override that keeps only the named strategies, each with the
// scenario's parameters where the file (after --set) gives them and defaults otherwise.
// Unknown names are an InputError naming the flag, with a "did you mean".
#pragma once

#include <string>
#include <vector>

namespace goodput {

std::string strategies_override(const std::string& scenario_path,
                                const std::vector<std::string>& sets, const std::string& list);

}  // namespace goodput
