// Index maps of the NTP gradient reshard (shared/reference/ntp.md): a weight gradient of
// `cols` columns split over n1 ranks (balanced, contiguous, in aligned units); the shards of the
// n1 - n2 extra ranks are spread, in global column order, over the n2 core ranks (balanced), so
// core rank j
// holds its own shard followed by the columns it receives ("extended" buffer).
// Contract: buffers are row-major rows x width, in elements; pack/unpack are lists of 2-D
// block copies (CopyBlock) that the CUDA kernels and the CPU reference apply identically.
#pragma once

#include <cstdint>
#include <vector>

namespace goodput::calib {

struct ReshardPlan {
  struct Move {
    int src_rank = 0, dst_rank = 0;  // extra rank -> core rank
    std::int64_t global_col = 0;     // first global column moved
    std::int64_t ncols = 0;
    std::int64_t src_col = 0;          // first column inside the extra rank's shard
    std::int64_t dst_col = 0;          // first column inside the core rank's extended buffer
    std::int64_t send_col_offset = 0;  // columns before this move in the extra rank's buffer
    std::int64_t recv_col_offset = 0;  // columns before this move in the core rank's buffer
  };
  std::int64_t cols = 0;
  int n1 = 0, n2 = 0;
  std::vector<std::int64_t> shard_begin;  // n1 + 1 boundaries in global columns
  std::vector<std::int64_t> recv_begin;   // n2 + 1 boundaries over the extra columns
  std::vector<Move> moves;                // ordered by global column

  std::int64_t shard_cols(int rank) const { return shard_begin[rank + 1] - shard_begin[rank]; }
  std::int64_t received_cols(int core) const { return recv_begin[core + 1] - recv_begin[core]; }
  std::int64_t extended_cols(int core) const { return shard_cols(core) + received_cols(core); }
  std::int64_t extra_cols() const { return cols - shard_begin[n2]; }
  std::int64_t sent_cols(int extra) const { return shard_cols(extra); }
};

// Columns are dealt in units of `align` (the last unit may be short) whenever every part gets
// at least one unit, else one by one: both splits stay balanced to within one unit. The
// default, 8 columns (16 bytes of bf16, like the FFN shards of shapes.hpp), keeps every copy
// segment 16-byte aligned: on an H200 the TP32 -> TP31 extra shard dealt column by column (62-
// column pieces) packed at 0.35-0.49 of the copy bandwidth. align = 1 is the NTP notes' own
// geometry (12000 columns, TP32 -> TP30: 25 columns per core rank).
// Throws std::invalid_argument unless 1 <= n2 < n1 <= cols and align >= 1.
inline constexpr std::int64_t kReshardAlignColumns = 8;
ReshardPlan make_reshard_plan(std::int64_t cols, int n1, int n2,
                              std::int64_t align = kReshardAlignColumns);

// Where a global column lives: before (rank in [0, n1), column in its shard) and after the
// gather (core rank in [0, n2), column in its extended buffer). Computed arithmetically,
// independently of `moves`, so tests can check the moves against it.
struct ColumnHome {
  int rank = 0;
  std::int64_t col = 0;
};
ColumnHome home_before(const ReshardPlan& plan, std::int64_t global_col);
ColumnHome home_after(const ReshardPlan& plan, std::int64_t global_col);

struct CopyBlock {
  std::int64_t src_offset = 0, src_ld = 0;  // elements
  std::int64_t dst_offset = 0, dst_ld = 0;
  std::int64_t rows = 0, ncols = 0;
};

// Before the all-reduce: the extra rank packs its shard (rows x shard_cols) into its send
// buffer; the core rank unpacks its receive buffer into its extended buffer.
std::vector<CopyBlock> pack_at_extra(const ReshardPlan& plan, int extra_rank, std::int64_t rows);
std::vector<CopyBlock> unpack_at_core(const ReshardPlan& plan, int core_rank, std::int64_t rows);
// After the all-reduce, the reverse: core packs the received columns, extra unpacks them.
std::vector<CopyBlock> pack_at_core(const ReshardPlan& plan, int core_rank, std::int64_t rows);
std::vector<CopyBlock> unpack_at_extra(const ReshardPlan& plan, int extra_rank, std::int64_t rows);

std::int64_t payload_elems(const std::vector<CopyBlock>& blocks);

// CPU reference executor: dst[b.dst_offset + r*b.dst_ld + c] = src[b.src_offset + r*b.src_ld + c].
template <class T>
void apply_blocks(const T* src, T* dst, const std::vector<CopyBlock>& blocks) {
  for (const CopyBlock& b : blocks) {
    for (std::int64_t r = 0; r < b.rows; ++r) {
      for (std::int64_t c = 0; c < b.ncols; ++c) {
        dst[b.dst_offset + r * b.dst_ld + c] = src[b.src_offset + r * b.src_ld + c];
      }
    }
  }
}

}  // namespace goodput::calib
