// Host name -> component id, from a map file and/or a pattern (hosts.hpp).
#include "models/trace/hosts.hpp"

#include "models/trace/detail.hpp"
#include "sim/core/error.hpp"

namespace goodput::trace {

std::optional<std::string> host_pattern_problem(const std::string& pattern) {
  try {
    const std::regex re(pattern, std::regex::ECMAScript);
    if (re.mark_count() != 1)
      return "expected a regular expression with exactly one capture group (the node index), "
             "found " +
             std::to_string(re.mark_count());
  } catch (const std::regex_error& e) {
    return std::string(
               "expected an ECMAScript regular expression, found one that does not "
               "compile: ") +
           e.what();
  }
  return std::nullopt;
}

HostMap::HostMap(const std::string& map_file, const std::string& pattern, std::int64_t index_offset,
                 const std::string& where)
    : offset_(index_offset) {
  if (!pattern.empty()) {
    if (const auto problem = host_pattern_problem(pattern))
      throw InputError(where, "", "host pattern: " + *problem);
    pattern_.emplace(pattern, std::regex::ECMAScript);
  }
  if (map_file.empty()) return;
  const std::string text = detail::read_file(map_file);
  const auto lines = detail::split_lines(text);
  std::unordered_map<std::string, std::size_t> line_of;
  bool first = true;
  for (std::size_t n = 1; n <= lines.size(); ++n) {
    const std::string_view line = lines[n - 1];
    if (detail::is_blank(line) || line[line.find_first_not_of(" \t")] == '#') continue;
    const std::string at = detail::line_locator(n);
    const auto fields = detail::split_csv_line(line, map_file, at);
    const bool header =
        first && fields.size() == 2 && fields[0] == "host" && fields[1] == "component";
    first = false;
    if (header) continue;
    if (fields.size() != 2)
      throw InputError(
          map_file, at,
          "expected 2 fields (host, component), found " + std::to_string(fields.size()));
    if (fields[0].empty() || fields[0].size() > kMaxHostNameChars)
      throw InputError(map_file, at,
                       "expected a host name of 1 to 253 characters, found " +
                           detail::describe_field(fields[0]));
    if (!parse_component(fields[1]))
      throw InputError(map_file, at,
                       "expected a component id '<kind>/<index>' with kind gpu, node, domain, "
                       "rack or leaf (e.g. 'node/17'), found " +
                           detail::describe_field(fields[1]));
    const auto [it, added] = line_of.emplace(fields[0], n);
    if (!added)
      throw InputError(map_file, at,
                       "expected each host once, found the host of line " +
                           std::to_string(it->second) + " again");
    listed_.emplace(fields[0], fields[1]);
  }
}

std::optional<std::string> HostMap::component(const std::string& host) {
  if (const auto it = listed_.find(host); it != listed_.end()) return it->second;
  if (!pattern_ || host.empty() || host.size() > kMaxHostNameChars) return std::nullopt;
  const auto known = matched_.find(host);
  if (known != matched_.end()) return known->second;
  std::optional<std::string> out;
  std::smatch m;
  if (std::regex_match(host, m, *pattern_) && m[1].matched) {
    const auto index = detail::parse_index(m[1].str());
    if (index) {
      const std::int64_t k = static_cast<std::int64_t>(*index) + offset_;
      if (k >= 0 && k <= std::int64_t{0xFFFFFFFF}) out = "node/" + std::to_string(k);
    }
  }
  matched_.emplace(host, out);
  return out;
}

}  // namespace goodput::trace
