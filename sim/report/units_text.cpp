#include "sim/report/units_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/report/text_util.hpp"

namespace goodput {

namespace {

// Prefix or suffix the currency to a figure already signed and formatted: "-$1,234",
// "-1,234 USD".
std::string with_currency(const std::string& figure, const std::string& currency) {
  if (currency.empty()) return figure;
  if (is_currency_code(currency)) return figure + " " + currency;
  if (!figure.empty() && figure[0] == '-') return "-" + currency + figure.substr(1);
  return currency + figure;
}

}  // namespace

std::string with_separators(double v, int decimals) {
  if (!std::isfinite(v)) return std::isnan(v) ? "n/a" : (v > 0 ? "infinite" : "-infinite");
  decimals = std::clamp(decimals, 0, 9);
  char format[16];
  std::snprintf(format, sizeof format, "%%.%df", decimals);
  std::string s = fmt(format, v);
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.erase(0, 1);
  const auto point = s.find('.');
  std::string whole = s.substr(0, point), rest = point == std::string::npos ? "" : s.substr(point);
  for (int i = static_cast<int>(whole.size()) - 3; i > 0; i -= 3)
    whole.insert(static_cast<std::size_t>(i), ",");
  // "-0" after rounding a tiny negative reads as a sign error: drop it.
  const bool zero = whole.find_first_not_of("0,") == std::string::npos &&
                    rest.find_first_not_of(".0") == std::string::npos;
  return (negative && !zero ? "-" : "") + whole + rest;
}

int ci_decimals(double mean, double ci) {
  const double m = std::abs(mean);
  // Most significant digit of the mean (0 for 0, so zero shows plainly).
  const int top = m > 0 && std::isfinite(m) ? static_cast<int>(std::floor(std::log10(m))) : 0;
  int step;  // round to 10^step
  if (ci > 0 && std::isfinite(ci))
    step = static_cast<int>(std::floor(std::log10(ci))) - 1;  // two digits of the CI
  else
    step = top - 3;                // four digits of the mean
  step = std::max(step, top - 6);  // at most 7 significant digits of the mean
  return -step;
}

namespace {

// v rounded to 10^-decimals (decimals < 0: tens, hundreds, ...), with separators.
std::string rounded(double v, int decimals) {
  if (decimals >= 0) return with_separators(v, decimals);
  const double unit = std::pow(10.0, -decimals);
  return with_separators(std::round(v / unit) * unit, 0);
}

}  // namespace

std::string number_ci(double mean, double ci, int n) {
  if (n < 2 || !(ci > 0)) return rounded(mean, ci_decimals(mean, 0));
  const int d = ci_decimals(mean, ci);
  return rounded(mean, d) + " ± " + rounded(ci, d);
}

std::string number_ci(const Summary& s) {
  return number_ci(s.mean, s.ci95, static_cast<int>(s.n));
}

std::string money(double v, const std::string& currency, int decimals) {
  if (decimals < 0) decimals = std::abs(v) >= 100 ? 0 : 2;
  return with_currency(with_separators(v, decimals), currency);
}

std::string money_ci(const Summary& s, const std::string& currency) {
  if (s.n < 2 || !(s.ci95 > 0)) {
    const int d = std::max(0, std::min(ci_decimals(s.mean, 0), 2));
    return with_currency(rounded(s.mean, std::abs(s.mean) >= 1e4 ? 0 : d), currency);
  }
  const int d = ci_decimals(s.mean, s.ci95);
  const std::string mean = rounded(s.mean, d), ci = rounded(s.ci95, d);
  if (is_currency_code(currency)) return mean + " ± " + ci + " " + currency;
  return with_currency(mean, currency) + " ± " + with_currency(ci, currency);
}

std::string money_short(double v, const std::string& currency) {
  const double a = std::abs(v);
  std::string figure;
  if (!std::isfinite(v))
    figure = with_separators(v, 0);
  else if (a >= 1e9)
    figure = fmt("%.1fB", a / 1e9);
  else if (a >= 1e6)
    figure = fmt("%.1fM", a / 1e6);
  else if (a >= 1e4)
    figure = fmt("%.0fk", a / 1e3);
  else
    figure = with_separators(a, a >= 100 ? 0 : 2);
  if (std::isfinite(v) && v < 0 && figure.find_first_not_of("0.,") != std::string::npos)
    figure = "-" + figure;
  return with_currency(figure, currency);
}

std::string seconds_text(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  char b[64];
  if (seconds < 10)
    std::snprintf(b, sizeof b, "%.2f s", seconds);
  else if (seconds < 60)
    std::snprintf(b, sizeof b, "%.1f s", seconds);
  else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(b, sizeof b, "%ld min %02ld s", s / 60, s % 60);
  } else if (seconds < 48 * 3600.0) {
    const long m = std::lround(seconds / 60);
    std::snprintf(b, sizeof b, "%ld h %02ld min", m / 60, m % 60);
  } else
    return days_text(seconds / 86400);
  return b;
}

std::string hours_text(double hours) {
  const int d = std::abs(hours - std::round(hours)) < 1e-9 ? 0 : (hours < 10 ? 2 : 1);
  const std::string h = with_separators(hours, d) + " h";
  if (hours < 48) return h;
  return days_text(hours / 24) + " (" + h + ")";
}

std::string span_text(double hours, bool plus) {
  const double a = std::abs(hours);
  const std::string text = a < 24 ? seconds_text(a * 3600) : days_text(a / 24);
  return (hours < 0 ? "-" : plus && hours > 0 ? "+" : "") + text;
}

std::string days_text(double days) {
  const bool whole = std::abs(days - std::round(days)) < 0.05;
  const std::string figure = with_separators(days, whole ? 0 : 1);
  return figure + (figure == "1" ? " day" : " days");
}

std::string counted(long long n, const std::string& noun, const std::string& plural) {
  return with_separators(static_cast<double>(n), 0) + " " +
         (n == 1           ? noun
          : plural.empty() ? noun + "s"
                           : plural);
}

}  // namespace goodput
