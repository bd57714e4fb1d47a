#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "calibrate/profile/reshard_map.hpp"

using namespace goodput::calib;

namespace {

using Elem = std::int64_t;
Elem encode(std::int64_t row, std::int64_t global_col) {
  return row * 1'000'000 + global_col + 1;
}

struct Cluster {
  std::vector<std::vector<Elem>> shards;    // n1 ranks, rows x shard_cols
  std::vector<std::vector<Elem>> extended;  // n2 core ranks, rows x extended_cols
};

// Runs the whole gather on the CPU: pack on every extra rank, all-to-all by moving send
// segments into receive buffers, unpack on every core rank.
Cluster gather(const ReshardPlan& p, std::int64_t rows) {
  Cluster c;
  for (int r = 0; r < p.n1; ++r) {
    std::vector<Elem> s(static_cast<std::size_t>(rows * p.shard_cols(r)));
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < p.shard_cols(r); ++j)
        s[i * p.shard_cols(r) + j] = encode(i, p.shard_begin[r] + j);
    c.shards.push_back(s);
  }
  std::vector<std::vector<Elem>> send(p.n1), recv(p.n2);
  for (int j = 0; j < p.n2; ++j) recv[j].assign(rows * p.received_cols(j), 0);
  for (int e = p.n2; e < p.n1; ++e) {
    send[e].assign(rows * p.sent_cols(e), 0);
    apply_blocks(c.shards[e].data(), send[e].data(), pack_at_extra(p, e, rows));
  }
  for (const auto& m : p.moves) {  // the wire: segment (e -> j) keeps its bytes
    for (std::int64_t i = 0; i < rows * m.ncols; ++i)
      recv[m.dst_rank][rows * m.recv_col_offset + i] =
          send[m.src_rank][rows * m.send_col_offset + i];
  }
  for (int j = 0; j < p.n2; ++j) {
    std::vector<Elem> ext(rows * p.extended_cols(j), 0);
    for (std::int64_t i = 0; i < rows; ++i)  // own shard stays in place
      for (std::int64_t k = 0; k < p.shard_cols(j); ++k)
        ext[i * p.extended_cols(j) + k] = c.shards[j][i * p.shard_cols(j) + k];
    apply_blocks(recv[j].data(), ext.data(), unpack_at_core(p, j, rows));
    c.extended.push_back(ext);
  }
  return c;
}

// Every global column appears exactly once over the core ranks, where home_after says.
void check_coverage(const ReshardPlan& p, const Cluster& c, std::int64_t rows) {
  std::vector<int> seen(static_cast<std::size_t>(p.cols), 0);
  std::int64_t misplaced = 0, wrong_value = 0, empty = 0;
  for (int j = 0; j < p.n2; ++j) {
    for (std::int64_t k = 0; k < p.extended_cols(j); ++k) {
      const Elem v = c.extended[j][k];
      if (v <= 0 || v > p.cols) {
        ++empty;
        continue;
      }
      const std::int64_t g = v - 1;
      ++seen[g];
      const ColumnHome h = home_after(p, g);
      if (h.rank != j || h.col != k) ++misplaced;
      for (std::int64_t i = 0; i < rows; ++i) {
        if (c.extended[j][i * p.extended_cols(j) + k] != encode(i, g)) ++wrong_value;
      }
    }
  }
  CHECK(empty == 0);
  CHECK(misplaced == 0);
  CHECK(wrong_value == 0);
  std::int64_t not_once = 0;
  for (std::int64_t g = 0; g < p.cols; ++g) not_once += seen[g] != 1;
  CHECK(not_once == 0);
}

}  // namespace

TEST_CASE("NTP notes geometry: 12000 columns, TP32 -> TP30") {
  const ReshardPlan p = make_reshard_plan(12000, 32, 30, 1);  // column by column, as the notes
  for (int r = 0; r < 32; ++r) CHECK(p.shard_cols(r) == 375);
  CHECK(p.extra_cols() == 750);
  for (int j = 0; j < 30; ++j) {
    CHECK(p.received_cols(j) == 25);
    CHECK(p.extended_cols(j) == 400);
  }
  // 30 moves of 25 columns: extra rank 30 feeds cores 0..14, rank 31 feeds cores 15..29.
  REQUIRE(p.moves.size() == 30);
  for (std::size_t i = 0; i < p.moves.size(); ++i) {
    const auto& m = p.moves[i];
    CHECK(m.ncols == 25);
    CHECK(m.dst_rank == static_cast<int>(i));
    CHECK(m.src_rank == (i < 15 ? 30 : 31));
    CHECK(m.dst_col == 375);
    CHECK(m.global_col == 11250 + 25 * static_cast<std::int64_t>(i));
  }
  CHECK(payload_elems(pack_at_extra(p, 30, 7)) == 375 * 7);
  CHECK(payload_elems(unpack_at_core(p, 0, 7)) == 25 * 7);
  check_coverage(p, gather(p, 3), 3);
}

TEST_CASE("pack then unpack, there and back, is the identity") {
  for (const auto& geometry : {std::tuple<std::int64_t, int, int>{12000, 32, 30},
                               {12001, 32, 28},
                               {1000, 8, 5},
                               {37, 9, 1}}) {
    // Plain variables, not structured bindings: clang (C++20) cannot capture those in the
    // lambdas CAPTURE expands to.
    const std::int64_t cols = std::get<0>(geometry);
    const int n1 = std::get<1>(geometry), n2 = std::get<2>(geometry);
    CAPTURE(cols);
    CAPTURE(n1);
    CAPTURE(n2);
    const std::int64_t rows = 4;
    const ReshardPlan p = make_reshard_plan(cols, n1, n2);
    Cluster c = gather(p, rows);
    // Back: every core packs its received columns, the wire carries them, extras unpack.
    std::vector<std::vector<Elem>> send(p.n2), recv(p.n1), back(p.n1);
    for (int j = 0; j < p.n2; ++j) {
      send[j].assign(rows * p.received_cols(j), 0);
      apply_blocks(c.extended[j].data(), send[j].data(), pack_at_core(p, j, rows));
    }
    for (int e = p.n2; e < p.n1; ++e) recv[e].assign(rows * p.sent_cols(e), 0);
    for (const auto& m : p.moves)
      for (std::int64_t i = 0; i < rows * m.ncols; ++i)
        recv[m.src_rank][rows * m.send_col_offset + i] =
            send[m.dst_rank][rows * m.recv_col_offset + i];
    for (int e = p.n2; e < p.n1; ++e) {
      back[e].assign(rows * p.shard_cols(e), -1);
      apply_blocks(recv[e].data(), back[e].data(), unpack_at_extra(p, e, rows));
      CHECK(back[e] == c.shards[e]);
    }
  }
}

TEST_CASE("every column is covered exactly once for uneven geometries") {
  for (std::int64_t cols : {9, 100, 1001, 12001}) {
    for (int n1 : {2, 3, 7, 9, 32}) {
      if (cols < n1) continue;
      for (int n2 = 1; n2 < n1; ++n2) {
        CAPTURE(cols);
        CAPTURE(n1);
        CAPTURE(n2);
        for (std::int64_t align : {std::int64_t{1}, kReshardAlignColumns}) {
          CAPTURE(align);
          const ReshardPlan p = make_reshard_plan(cols, n1, n2, align);
          std::int64_t total = 0;
          for (int r = 0; r < n1; ++r) total += p.shard_cols(r);
          CHECK(total == cols);
          std::int64_t least = cols, most = 0;
          for (int r = 0; r < n1; ++r) {
            least = std::min(least, p.shard_cols(r));
            most = std::max(most, p.shard_cols(r));
          }
          CHECK(least >= 1);
          CHECK(most - least <= align);  // balanced to within one unit
          check_coverage(p, gather(p, 2), 2);
        }
      }
    }
  }
}

TEST_CASE("aligned plans cut shards and received columns at multiples of 8 columns") {
  // The H200's TP32 -> TP31 qkv gradient: 1920 extra columns over 31 cores.
  const ReshardPlan p = make_reshard_plan(61440, 32, 31);
  for (int r = 0; r < 32; ++r) CHECK(p.shard_cols(r) == 1920);
  for (int j = 0; j < 31; ++j) {
    CAPTURE(j);
    CHECK(p.recv_begin[j] % kReshardAlignColumns == 0);
    CHECK(p.received_cols(j) % kReshardAlignColumns == 0);
    CHECK((p.received_cols(j) == 56 || p.received_cols(j) == 64));  // 240 units of 8 over 31
  }
  for (const auto& m : p.moves) {
    CHECK(m.ncols % kReshardAlignColumns == 0);
    CHECK(m.src_col % kReshardAlignColumns == 0);
    CHECK(m.dst_col % kReshardAlignColumns == 0);
  }
  // Uneven: 12001 columns over 32 ranks: 1501 units (the last of 1 column) = 46 each and 29
  // more: the first 3 ranks get 46 units, the last 29 get 47, the short unit in the very last.
  const ReshardPlan u = make_reshard_plan(12001, 32, 28);
  for (int r = 0; r < 32; ++r) CHECK(u.shard_begin[r] % kReshardAlignColumns == 0);
  CHECK(u.shard_cols(0) == 368);
  CHECK(u.shard_cols(30) == 376);
  CHECK(u.shard_cols(31) == 369);
  check_coverage(u, gather(u, 3), 3);
  // Too few columns for one unit each: column by column.
  const ReshardPlan small = make_reshard_plan(100, 32, 30);
  CHECK(small.shard_cols(0) == 3);
  CHECK(small.shard_cols(31) == 4);
}

TEST_CASE("reshard plan rejects impossible geometries") {
  CHECK_THROWS(make_reshard_plan(100, 8, 4, 0));
  CHECK_THROWS(make_reshard_plan(100, 8, 8));
  CHECK_THROWS(make_reshard_plan(100, 8, 0));
  CHECK_THROWS(make_reshard_plan(5, 8, 4));
}
