#include "calibrate/profile/reshard_map.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace goodput::calib {
namespace {

// n + 1 boundaries of a balanced split of `total` items starting at `first`, in units of
// `align` items (the last unit holds the remainder) when there are at least n units, else of
// one item: the last units % n parts get one more unit, so the short unit never lands in a
// part that is already a unit smaller (parts differ by at most one unit).
std::vector<std::int64_t> balanced(std::int64_t first, std::int64_t total, int n,
                                   std::int64_t align) {
  const std::int64_t unit = total >= align * n ? align : 1;
  const std::int64_t units = (total + unit - 1) / unit;
  std::vector<std::int64_t> b(static_cast<std::size_t>(n) + 1, first);
  std::int64_t dealt = 0;
  for (int i = 0; i < n; ++i) {
    dealt += units / n + (i >= n - units % n ? 1 : 0);
    b[i + 1] = first + std::min(dealt * unit, total);
  }
  return b;
}

int find_part(const std::vector<std::int64_t>& bounds, std::int64_t x) {
  auto it = std::upper_bound(bounds.begin(), bounds.end(), x);
  return static_cast<int>(it - bounds.begin()) - 1;
}

}  // namespace

ReshardPlan make_reshard_plan(std::int64_t cols, int n1, int n2, std::int64_t align) {
  if (n2 < 1 || n2 >= n1 || cols < n1 || align < 1) {
    throw std::invalid_argument(
        "reshard plan needs 1 <= n2 < n1 <= cols and align >= 1 (got cols " + std::to_string(cols) +
        ", n1 " + std::to_string(n1) + ", n2 " + std::to_string(n2) + ", align " +
        std::to_string(align) + ")");
  }
  ReshardPlan p;
  p.cols = cols;
  p.n1 = n1;
  p.n2 = n2;
  p.shard_begin = balanced(0, cols, n1, align);
  p.recv_begin = balanced(0, p.extra_cols(), n2, align);
  const std::int64_t x0 = p.shard_begin[n2];  // first extra column
  std::vector<std::int64_t> sent(static_cast<std::size_t>(n1), 0);
  // Walk the extra columns, cutting at both shard and receive boundaries.
  std::int64_t g = x0;
  while (g < cols) {
    const int src = find_part(p.shard_begin, g);
    const int dst = find_part(p.recv_begin, g - x0);
    const std::int64_t end = std::min(p.shard_begin[src + 1], x0 + p.recv_begin[dst + 1]);
    ReshardPlan::Move m;
    m.src_rank = src;
    m.dst_rank = dst;
    m.global_col = g;
    m.ncols = end - g;
    m.src_col = g - p.shard_begin[src];
    m.dst_col = p.shard_cols(dst) + (g - x0 - p.recv_begin[dst]);
    m.send_col_offset = sent[src];
    m.recv_col_offset = g - x0 - p.recv_begin[dst];
    sent[src] += m.ncols;
    p.moves.push_back(m);
    g = end;
  }
  return p;
}

ColumnHome home_before(const ReshardPlan& p, std::int64_t g) {
  if (g < 0 || g >= p.cols) throw std::out_of_range("column outside the matrix");
  const int r = find_part(p.shard_begin, g);
  return {r, g - p.shard_begin[r]};
}

ColumnHome home_after(const ReshardPlan& p, std::int64_t g) {
  const ColumnHome before = home_before(p, g);
  if (before.rank < p.n2) return before;
  const std::int64_t idx = g - p.shard_begin[p.n2];
  const int j = find_part(p.recv_begin, idx);
  return {j, p.shard_cols(j) + idx - p.recv_begin[j]};
}

std::vector<CopyBlock> pack_at_extra(const ReshardPlan& p, int e, std::int64_t rows) {
  std::vector<CopyBlock> out;
  for (const auto& m : p.moves) {
    if (m.src_rank != e) continue;
    out.push_back({m.src_col, p.shard_cols(e), rows * m.send_col_offset, m.ncols, rows, m.ncols});
  }
  return out;
}

std::vector<CopyBlock> unpack_at_core(const ReshardPlan& p, int j, std::int64_t rows) {
  std::vector<CopyBlock> out;
  for (const auto& m : p.moves) {
    if (m.dst_rank != j) continue;
    out.push_back(
        {rows * m.recv_col_offset, m.ncols, m.dst_col, p.extended_cols(j), rows, m.ncols});
  }
  return out;
}

std::vector<CopyBlock> pack_at_core(const ReshardPlan& p, int j, std::int64_t rows) {
  std::vector<CopyBlock> out;
  for (const auto& m : p.moves) {
    if (m.dst_rank != j) continue;
    out.push_back(
        {m.dst_col, p.extended_cols(j), rows * m.recv_col_offset, m.ncols, rows, m.ncols});
  }
  return out;
}

std::vector<CopyBlock> unpack_at_extra(const ReshardPlan& p, int e, std::int64_t rows) {
  std::vector<CopyBlock> out;
  for (const auto& m : p.moves) {
    if (m.src_rank != e) continue;
    out.push_back({rows * m.send_col_offset, m.ncols, m.src_col, p.shard_cols(e), rows, m.ncols});
  }
  return out;
}

std::int64_t payload_elems(const std::vector<CopyBlock>& blocks) {
  std::int64_t n = 0;
  for (const auto& b : blocks) n += b.rows * b.ncols;
  return n;
}

}  // namespace goodput::calib
