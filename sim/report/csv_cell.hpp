// One cell of a CSV file goodput writes (runs.csv, points.csv): quoted as RFC 4180 says when it
// holds a comma, a quote or a line break, and protected against spreadsheet formula injection
// as OWASP recommends ("CSV Injection"): a text cell starting with '=', '+', '-', '@', a tab or
// a carriage return is written as "'<text>" (a single quote in front, inside double quotes), so
// Excel, LibreOffice and Google Sheets show it as text instead of evaluating it. A cell that is
// a finite number (-0.5, +3, 1e-3) is written unchanged, so numbers stay numbers.
#pragma once

#include <cmath>
#include <cstdlib>
#include <string>

namespace goodput {

inline std::string csv_cell(const std::string& text) {
  bool formula = !text.empty() && std::string("=+-@\t\r").find(text[0]) != std::string::npos;
  if (formula) {
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    formula = !(end && *end == '\0' && std::isfinite(x));  // a number is not a formula
  }
  if (!formula && text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = formula ? "\"'" : "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace goodput
