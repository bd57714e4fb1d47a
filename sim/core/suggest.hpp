// "Did you mean": the candidate closest to a mistyped name (edit distance, case-folded),
// if it is close enough to be a plausible typo (at most a third of the name's length, and 3).
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace goodput {

// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
// adjacent letters ("rnu" -> "run") each cost 1; letters compare case-insensitively.
inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  auto eq = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (eq(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && eq(a[i - 1], b[j - 2]) && eq(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// " (did you mean 'x'?)" or "" when nothing is close.
inline std::string did_you_mean(const std::string& name,
                                const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    if (d < best_d) best_d = d, best = c;
  }
  const std::size_t limit = std::min<std::size_t>(3, std::max<std::size_t>(1, name.size() / 3));
  if (best.empty() || best_d > limit) return "";
  return " (did you mean '" + best + "'?)";
}

}  // namespace goodput
