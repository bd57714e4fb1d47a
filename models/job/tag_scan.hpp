// Searches of two arrays of 16-bit entries for an index where both are 0, four entries at a
// time (JobLayout: a GPU's tag, 0 when idle, and ClusterHealth's down count, 0 when up: an idle
// healthy GPU). Each returns exactly what a one-entry-at-a-time scan would: first_zero_pair the
// lowest such index in [from, end) (end: none), last_zero_pair the highest in [begin, below)
// (npos: none). The position inside a word comes from its bits.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace goodput::tag_scan {

inline constexpr std::uint32_t npos = UINT32_MAX;

// The four tags p[0..3] as one word, p[j] in bits [16 j, 16 j + 16).
inline std::uint64_t four_tags(const std::uint16_t* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::big)
    w = (w >> 48) | ((w >> 16) & 0xFFFF0000ull) | ((w << 16) & 0xFFFF00000000ull) | (w << 48);
  return w;
}

// Bit 16 j + 15 set exactly when tag j of `w` is 0: a tag's low 15 bits plus 0x7FFF carry into
// its top bit unless they are all 0, and never out of the tag (at most 0xFFFE), so no tag reads
// another's bits. (The classic (w - 0x0001...) & ~w test answers "any zero" exactly, but can also
// flag a tag of 1 above a zero one: no good for finding the last.)
inline std::uint64_t zero_tags(std::uint64_t w) {
  constexpr std::uint64_t kLow = 0x7FFF7FFF7FFF7FFFull;
  return ~(((w & kLow) + kLow) | w) & ~kLow;
}

inline std::uint32_t first_zero_pair(const std::uint16_t* a, const std::uint16_t* b,
                                     std::uint32_t from, std::uint32_t end) {
  for (; from + 4 <= end; from += 4)
    if (const std::uint64_t z = zero_tags(four_tags(a + from) | four_tags(b + from)); z != 0)
      return from + static_cast<std::uint32_t>(std::countr_zero(z)) / 16;
  for (; from < end; ++from)
    if ((a[from] | b[from]) == 0) return from;
  return end;
}

inline std::uint32_t last_zero_pair(const std::uint16_t* a, const std::uint16_t* b,
                                    std::uint32_t begin, std::uint32_t below) {
  for (; below >= begin + 4; below -= 4)
    if (const std::uint64_t z = zero_tags(four_tags(a + below - 4) | four_tags(b + below - 4));
        z != 0)
      return below - 4 + static_cast<std::uint32_t>(63 - std::countl_zero(z)) / 16;
  while (below > begin) {
    --below;
    if ((a[below] | b[below]) == 0) return below;
  }
  return npos;
}

}  // namespace goodput::tag_scan
