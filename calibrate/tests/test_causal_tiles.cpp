// The causal blocked attention of the harness (harness/causal_tiles.hpp): every unmasked tile
// exactly once, no masked tile, the FLOPs of the causal fraction, every operand in bounds.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "calibrate/harness/causal_tiles.hpp"

using namespace goodput::calib::causal;

namespace {

// Extent of an operand as stored: rows x cols column-major with leading dimension ld.
bool in_bounds(const Operand& o, std::int64_t rows, std::int64_t cols, std::int64_t s,
               std::int64_t d) {
  return o.offset >= 0 && rows <= o.ld &&
         o.offset + (cols - 1) * o.ld + rows <= buffer_elems(o.buf, s, d);
}

void check_bounds(const std::vector<TileGemm>& calls, std::int64_t s, std::int64_t d) {
  for (const TileGemm& g : calls) {
    CHECK(in_bounds(g.a, g.trans_a ? g.k : g.m, g.trans_a ? g.m : g.k, s, d));
    CHECK(in_bounds(g.b, g.trans_b ? g.n : g.k, g.trans_b ? g.k : g.n, s, d));
    CHECK(in_bounds(g.c, g.m, g.n, s, d));
  }
}

double flops(const std::vector<TileGemm>& calls) {
  double f = 0;
  for (const TileGemm& g : calls)
    f += 2.0 * static_cast<double>(g.m) * static_cast<double>(g.n) * static_cast<double>(g.k);
  return f;
}

}  // namespace

TEST_CASE("causal tiling: lower tiles once, masked tiles never, causal FLOPs, in bounds") {
  for (std::int64_t s : {512, 4096, 8192, 16384, 1000, 1001}) {
    for (std::int64_t d : {64, 128, 160}) {
      CAPTURE(s);
      CAPTURE(d);
      const Tiling t = tiling(s);
      CHECK(t.tiles * t.tile == s);
      const std::vector<TileGemm> fwd = forward(s, d, t), bwd = backward(s, d, t);
      REQUIRE(fwd.size() == 2 * static_cast<std::size_t>(t.tiles));
      REQUIRE(bwd.size() == 4 * static_cast<std::size_t>(t.tiles));
      // Score tiles written by S = K^T Q (fwd) and dP (bwd): (key tile, query tile) pairs.
      for (int buf : {kS, kDP}) {
        std::vector<int> hits(static_cast<std::size_t>(t.tiles * t.tiles), 0);
        for (const TileGemm& g : buf == kS ? fwd : bwd) {
          if (g.c.buf != buf) continue;
          const std::int64_t col = g.c.offset / s;  // first query of the call
          for (std::int64_t r = 0; r < g.m; r += t.tile)
            ++hits[static_cast<std::size_t>((r / t.tile) * t.tiles + col / t.tile)];
        }
        for (int r = 0; r < t.tiles; ++r)
          for (int c = 0; c < t.tiles; ++c)
            CHECK(hits[static_cast<std::size_t>(r * t.tiles + c)] == (r <= c ? 1 : 0));
      }
      const double dense =
          2.0 * static_cast<double>(s) * static_cast<double>(s) * static_cast<double>(d);
      CHECK(flops(fwd) == doctest::Approx(2 * dense * causal_fraction(t)));
      CHECK(flops(bwd) == doctest::Approx(4 * dense * causal_fraction(t)));
      check_bounds(fwd, s, d);
      check_bounds(bwd, s, d);
    }
  }
  CHECK(tiling(16384).tiles == 16);
  CHECK(tiling(1000).tiles == 2);
  CHECK(tiling(1001).tiles == 1);  // no tiling of >= 256 tokens divides it: dense
  CHECK(causal_fraction(tiling(16384)) == doctest::Approx(17.0 / 32));
}
