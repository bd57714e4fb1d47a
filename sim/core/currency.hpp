// /report/currency: which texts name a currency. An ISO 4217-style code is three ASCII capitals
// ("USD", "EUR"; reports print it after the figure); anything else must be a short symbol ("$",
// "€", "R$"; printed before it). Header-only, std only: the scenario loader refuses a bad value
// with currency_problem's reason, the report's money formatting (sim/report/units_text.hpp) asks
// is_currency_code where to put it.
#pragma once

#include <algorithm>
#include <string>

namespace goodput {

inline bool is_currency_code(const std::string& c) {
  return c.size() == 3 &&
         std::all_of(c.begin(), c.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
}

// Why `c` is not usable as a currency (empty: it is): a three-capital code, or a symbol of 1 to 4
// characters (UTF-8 code points) with no digit, space, control character or Markdown/HTML mark
// (| < > & * _ ` \ ").
inline std::string currency_problem(const std::string& c) {
  if (c.empty()) return "expected a currency code such as \"USD\" or a symbol such as \"$\"";
  if (is_currency_code(c)) return "";
  const bool letters = std::all_of(c.begin(), c.end(), [](char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
  });
  if (letters)
    return "'" + c +
           "' is neither a currency code (three capital letters, ISO 4217: \"USD\", \"EUR\") nor "
           "a symbol (\"$\", \"€\")";
  std::size_t points = 0;
  for (unsigned char ch : c) points += (ch & 0xC0) != 0x80;
  if (points > 4)
    return "'" + c +
           "' is too long for a currency symbol (at most 4 characters; or a code such as \"USD\")";
  for (unsigned char ch : c)
    if (ch < 0x20 || ch == 0x7F || ch == ' ' || (ch >= '0' && ch <= '9') ||
        std::string("|<>&*_`\\\"").find(static_cast<char>(ch)) != std::string::npos)
      return "'" + c +
             "' holds a character a currency symbol cannot have (digits, spaces, control "
             "characters and | < > & * _ ` \\ \" are refused)";
  return "";
}

}  // namespace goodput
