// Causal attention as blocked GEMMs that skip the masked upper blocks (the harness's attention
// when no fused kernel is at hand). Per head, column-major as cuBLAS sees it: Q, K, V, dO and
// Out are d x s (token j's d features contiguous), S and dP are s x s with S[i, j] the score of
// key i for query j, masked (never computed) where i > j beyond the diagonal tile.
// Contract: the sequence is cut into `tiles` tiles of `tile` tokens; forward = per query tile
// qt, S[0:(qt+1)T, qt] = K^T Q and O[:, qt] = V S[0:(qt+1)T, qt]; backward = per key tile dV
// and dK over the queries at or after it, per query tile dP and dQ over the keys up to it.
// Every tile is computed once; the FLOPs are (tiles + 1) / (2 tiles) of the dense product.
// Dependency-free (standard library only), so the CPU suite checks the tiling.
#pragma once

#include <cstdint>
#include <vector>

namespace goodput::calib::causal {

enum Buf { kQ, kK, kV, kDO, kS, kDP, kOut, kBufCount };

struct Operand {
  int buf = kQ;
  std::int64_t offset = 0;  // elements from the head's first element
  std::int64_t ld = 0;
};

// C[m x n] = op(A)[m x k] op(B)[k x n], column-major, batched over heads.
struct TileGemm {
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0;
  Operand a, b, c;
};

struct Tiling {
  int tiles = 1;
  std::int64_t tile = 0;
};

// The most tiles in {16, 8, 4, 2} that divide s with tiles of >= 256 tokens; else one tile.
inline Tiling tiling(std::int64_t s) {
  for (int t : {16, 8, 4, 2}) {
    if (s % t == 0 && s / t >= 256) return {t, s / t};
  }
  return {1, s};
}

inline double causal_fraction(const Tiling& t) {
  return (t.tiles + 1) / (2.0 * t.tiles);
}

inline std::vector<TileGemm> forward(std::int64_t s, std::int64_t d, const Tiling& t) {
  std::vector<TileGemm> out;
  const std::int64_t B = t.tile;
  for (int q = 0; q < t.tiles; ++q) {  // S = K^T Q over keys [0, (q+1)B)
    out.push_back(
        {true, false, (q + 1) * B, B, d, {kK, 0, d}, {kQ, q * B * d, d}, {kS, q * B * s, s}});
  }
  for (int q = 0; q < t.tiles; ++q) {  // O = V P over the same keys
    out.push_back(
        {false, false, d, B, (q + 1) * B, {kV, 0, d}, {kS, q * B * s, s}, {kOut, q * B * d, d}});
  }
  return out;
}

inline std::vector<TileGemm> backward(std::int64_t s, std::int64_t d, const Tiling& t) {
  std::vector<TileGemm> out;
  const std::int64_t B = t.tile;
  for (int kt = 0; kt < t.tiles; ++kt) {  // dV = dO P^T over queries [kt B, s)
    out.push_back({false,
                   true,
                   d,
                   B,
                   s - kt * B,
                   {kDO, kt * B * d, d},
                   {kS, kt * B + kt * B * s, s},
                   {kOut, kt * B * d, d}});
  }
  for (int q = 0; q < t.tiles; ++q) {  // dP = V^T dO over keys [0, (q+1)B)
    out.push_back(
        {true, false, (q + 1) * B, B, d, {kV, 0, d}, {kDO, q * B * d, d}, {kDP, q * B * s, s}});
  }
  for (int q = 0; q < t.tiles; ++q) {  // dQ = K dS over keys [0, (q+1)B)
    out.push_back(
        {false, false, d, B, (q + 1) * B, {kK, 0, d}, {kDP, q * B * s, s}, {kOut, q * B * d, d}});
  }
  for (int kt = 0; kt < t.tiles; ++kt) {  // dK = Q dS^T over queries [kt B, s)
    out.push_back({false,
                   true,
                   d,
                   B,
                   s - kt * B,
                   {kQ, kt * B * d, d},
                   {kDP, kt * B + kt * B * s, s},
                   {kOut, kt * B * d, d}});
  }
  return out;
}

// Elements of one head's buffer.
inline std::int64_t buffer_elems(int buf, std::int64_t s, std::int64_t d) {
  return buf == kS || buf == kDP ? s * s : s * d;
}

}  // namespace goodput::calib::causal
