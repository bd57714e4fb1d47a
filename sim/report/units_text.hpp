// Figures in the reader's units, for every printer (report.md, the terminal, report.html, goodput
// diff): numbers with thousands separators, money in the scenario's currency (/report/currency:
// an ISO 4217 code such as "USD", printed after the figure, or a symbol such as "$", before it),
// a mean with its 95% CI rounded to the CI's precision, durations in h/min/s or days, and counted
// nouns with the right plural. Pure functions of their arguments (no locale).
#pragma once

#include <string>

#include "sim/core/currency.hpp"  // is_currency_code
#include "sim/core/stats.hpp"

namespace goodput {

// v rounded to `decimals` places (0..9) with a comma every three digits: "-1,234,567.89".
std::string with_separators(double v, int decimals);

// The decimals that show a mean with its 95% CI half-width to the CI's precision: two
// significant digits of the CI (52,380 -> 0 places, rounded to thousands by round_to_ci; 0.0123
// -> 3), four significant digits of the mean when there is no CI (ci <= 0), never more than 7
// significant digits of the mean. Negative: round to 10^-decimals (thousands: -3).
int ci_decimals(double mean, double ci);
// "32,903,000 ± 52,000": mean and CI at ci_decimals (n < 2: the mean alone, 4 significant digits).
std::string number_ci(const Summary& s);
std::string number_ci(double mean, double ci, int n);

// Money in full: "$32,903,456", "32,903,456 USD", "-$1,234" (at `decimals`; -1: whole units from
// 100 up, else cents).
std::string money(double v, const std::string& currency, int decimals = -1);
// A mean with its CI in money, rounded to the CI: "$32,903,000 ± $52,000", "32,903,000 ± 52,000
// USD"; n < 2: the mean alone.
std::string money_ci(const Summary& s, const std::string& currency);
// Compact, for sentences: "$2.0M", "1.2B USD", "$350k", "$12.35", "-$2.0M".
std::string money_short(double v, const std::string& currency);

// A duration: "0.45 s", "42.3 s", "12 min 05 s", "3 h 25 min", and from 48 h "2.3 days".
std::string seconds_text(double seconds);
// A span of hours for sentences: "36 h", "30 days (720 h)", "365 days (8,760 h)".
std::string hours_text(double hours);
// A signed span of hours, under a day in h/min/s, else in days: "4 h 36 min", "-1.9 days"
// (`plus`: "+4 h 36 min" for a positive span, as differences are written).
std::string span_text(double hours, bool plus = false);
// Days to one decimal, singular at exactly one: "1.9 days", "1 day", "0.4 days".
std::string days_text(double days);

// "1 seed", "2 seeds", "1,088 domains": n with the noun, plural by default noun + "s".
std::string counted(long long n, const std::string& noun, const std::string& plural = "");

}  // namespace goodput
