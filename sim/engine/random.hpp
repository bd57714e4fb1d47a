// Deterministic random streams. Every stream is derived from (seed, run, component) by
// hashing, so adding a stream never moves another one's numbers (ns-3's run/stream idea).
// Generator: xoshiro256** seeded through splitmix64. Distributions are written out here
// (not std::*_distribution, whose output differs between standard libraries).
#pragma once

#include <cmath>
#include <cstdint>

namespace goodput {

__extension__ typedef unsigned __int128 Uint128;

inline std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class RandomStream {
 public:
  RandomStream(std::uint64_t seed, std::uint64_t run, std::uint64_t component) {
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ULL;
    x ^= splitmix64(x) + run * 0xD1B54A32D192ED03ULL;
    x ^= splitmix64(x) + component * 0xABC98388FB8FAC03ULL;
    for (auto& s : s_) s = splitmix64(x);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in the open interval (0, 1).
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  // Uniform integer in [0, n), unbiased (Lemire).
  std::uint64_t below(std::uint64_t n) {
    Uint128 m = static_cast<Uint128>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<Uint128>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
  double exponential(double mean) { return -std::log(uniform()) * mean; }
  double weibull(double shape, double scale) {
    return scale * std::pow(-std::log(uniform()), 1.0 / shape);
  }
  double normal() {  // Box-Muller, one value per call (the pair's second half is dropped)
    const double u1 = uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  double lognormal(double median, double sigma) { return median * std::exp(sigma * normal()); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace goodput
