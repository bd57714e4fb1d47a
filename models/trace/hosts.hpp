// Host names of operator logs mapped to goodput component ids. A HostMap is built from a map
// file (CSV "host,component": an optional header line `host,component`, '#' comments, blank
// lines; e.g. `gpu-node-017,node/16`), a pattern (an ECMAScript regular expression matching the
// whole host name, with exactly one capture group whose digits are a node index; the component
// is node/<digits + offset>), or both: the map file first, then the pattern. Problems in the map
// file throw InputError(map file, "line N"): wrong field count, empty host, malformed component
// id, a host listed twice. component() says std::nullopt for a host neither knows, and never
// copies a host name into a message.
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>

namespace goodput::trace {

// Why `pattern` cannot be a host pattern (not a valid regular expression, or not exactly one
// capture group), or std::nullopt when it can.
std::optional<std::string> host_pattern_problem(const std::string& pattern);

// Host names longer than this are refused (DNS names have at most 253 characters).
inline constexpr std::size_t kMaxHostNameChars = 253;

class HostMap {
 public:
  // `map_file` and `pattern` may be empty (then that source is unused). A bad pattern throws
  // InputError(`where`, "", why): `where` names what gave it (a trace file, a flag).
  HostMap(const std::string& map_file, const std::string& pattern, std::int64_t index_offset,
          const std::string& where);
  std::optional<std::string> component(const std::string& host);

 private:
  std::unordered_map<std::string, std::string> listed_;  // from the map file
  std::optional<std::regex> pattern_;
  std::int64_t offset_ = 0;
  std::unordered_map<std::string, std::optional<std::string>> matched_;  // pattern results
};

}  // namespace goodput::trace
