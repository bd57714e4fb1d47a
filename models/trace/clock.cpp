// ISO 8601 timestamps and UTC offsets (clock.hpp).
#include "models/trace/clock.hpp"

#include <chrono>

namespace goodput::trace {

namespace {

// Exactly `n` digits at `pos`.
std::optional<int> fixed_digits(std::string_view s, std::size_t& pos, std::size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  pos += n;
  return value;
}

bool take(std::string_view s, std::size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

// A zone at `pos` running to the end of `s`: minutes east of UTC.
std::optional<int> zone(std::string_view s, std::size_t pos) {
  const std::string_view z = s.substr(pos);
  if (z == "Z" || z == "z" || z == "UTC") return 0;
  if (z.empty() || (z[0] != '+' && z[0] != '-')) return std::nullopt;
  const int sign = z[0] == '-' ? -1 : 1;
  std::size_t p = 1;
  const auto h = fixed_digits(z, p, 2);
  if (!h) return std::nullopt;
  int m = 0;
  if (p < z.size()) {
    take(z, p, ':');
    const auto mm = fixed_digits(z, p, 2);
    if (!mm || p != z.size()) return std::nullopt;
    m = *mm;
  }
  if (*h > 18 || m > 59 || *h * 60 + m > 18 * 60) return std::nullopt;
  return sign * (*h * 60 + m);
}

}  // namespace

std::optional<int> parse_utc_offset(std::string_view text) {
  return zone(text, 0);
}

std::optional<std::int64_t> parse_iso_time(std::string_view s, int default_offset_min) {
  std::size_t p = 0;
  const auto y = fixed_digits(s, p, 4);
  if (!y || !take(s, p, '-')) return std::nullopt;
  const auto mo = fixed_digits(s, p, 2);
  if (!mo || !take(s, p, '-')) return std::nullopt;
  const auto d = fixed_digits(s, p, 2);
  if (!d || !(take(s, p, 'T') || take(s, p, 't') || take(s, p, ' '))) return std::nullopt;
  const auto h = fixed_digits(s, p, 2);
  if (!h || !take(s, p, ':')) return std::nullopt;
  const auto mi = fixed_digits(s, p, 2);
  if (!mi) return std::nullopt;
  int sec = 0, ms = 0;
  if (take(s, p, ':')) {
    const auto ss = fixed_digits(s, p, 2);
    if (!ss) return std::nullopt;
    sec = *ss;
    if (take(s, p, '.') || take(s, p, ',')) {
      std::size_t digits = 0;
      while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
        if (digits < 3) ms = ms * 10 + (s[p] - '0');
        ++digits;
        ++p;
      }
      if (digits == 0) return std::nullopt;
      for (std::size_t k = digits; k < 3; ++k) ms *= 10;
    }
  }
  int offset = default_offset_min;
  if (p < s.size()) {
    const auto z = zone(s, p);
    if (!z) return std::nullopt;
    offset = *z;
  }
  namespace chr = std::chrono;
  const chr::year_month_day date{chr::year{*y}, chr::month{static_cast<unsigned>(*mo)},
                                 chr::day{static_cast<unsigned>(*d)}};
  if (!date.ok() || *h > 23 || *mi > 59 || sec > 59) return std::nullopt;
  const std::int64_t days = chr::sys_days{date}.time_since_epoch().count();
  const std::int64_t minutes = days * 1440 + *h * 60 + *mi - offset;
  return (minutes * 60 + sec) * 1000 + ms;
}

}  // namespace goodput::trace
