// Helpers shared by the trace tests: data paths and a resolver over a small cluster.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/trace/trace.hpp"

namespace goodput::trace::test {

inline std::string data(const std::string& name) {
  return std::string(GOODPUT_TRACE_TEST_DATA) + "/" + name;
}

// The registered format of that name (the tests name formats as a scenario does).
inline const TraceFormat& format(const char* name) {
  return parse_format(name, "", "/failures/trace/format");
}

// Resolves "<kind>/<index>" for any kind with index < limit to index (enough for tests).
inline auto resolver(std::uint32_t limit) {
  return [limit](const std::string& name) -> std::optional<std::uint32_t> {
    const auto ref = parse_component(name);
    if (!ref || ref->index >= limit) return std::nullopt;
    return ref->index;
  };
}

}  // namespace goodput::trace::test
