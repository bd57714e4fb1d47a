// Addressing of the reshard pack/unpack kernel: which bf16 elements go where, and at which
// vector width. Shared verbatim by the CUDA kernel (reshard_kernels.cu) and the CPU test
// (tests/test_copy_addressing.cpp), so the test runs the kernel's exact index arithmetic.
// Contract: a block (CopyBlock, reshard_map.hpp) copies `rows` row segments of `ncols`
// elements. Each row is cut into windows aligned to `vec` elements in the destination buffer;
// a full window whose source vectors lie inside the source buffer is a vector window (one or
// two aligned source loads, merged by `shift` elements, one aligned store), every other window
// (row edges, buffer end) is copied element by element. Buffers must start 16-byte aligned.
// Offsets and leading dimensions are >= 0 and vec is a power of two. No access leaves
// [0, src_elems) or [0, dst_elems); every destination element of the block is
// written exactly once. Dependency-free: plain C++ / CUDA, no standard library beyond <cstdint>.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define GOODPUT_HD __host__ __device__
#else
#define GOODPUT_HD
#endif

namespace goodput::calib::addr {

inline constexpr int kMaxVecElems = 8;  // 16 bytes of bf16

// One block as the kernel sees it (elements; `vec` and `windows` chosen by describe_block).
struct BlockDesc {
  long long src_offset = 0, src_ld = 0, dst_offset = 0, dst_ld = 0, rows = 0, ncols = 0;
  int vec = 1;            // elements per vector access: 8, 4, 2 or 1 (1 = scalar only)
  unsigned windows = 0;   // windows per row (an upper bound; trailing ones may be empty)
};

// The widest vector that leaves most of a row segment of `ncols` elements vectorised: a row
// loses at most vec - 1 elements to each edge, so vec = 8 needs rows of >= 32 elements, vec = 4
// rows of >= 8. Chosen per block, never per plan.
GOODPUT_HD constexpr int choose_vec(long long ncols) {
  return ncols >= 32 ? 8 : ncols >= 8 ? 4 : ncols >= 4 ? 2 : 1;
}

// Windows per row: the aligned windows touching [d0, d0 + ncols) are at most ceil(ncols/vec)+1.
GOODPUT_HD constexpr unsigned windows_per_row(long long ncols, int vec) {
  return vec == 1 ? static_cast<unsigned>(ncols)
                  : static_cast<unsigned>((ncols + vec - 1) / vec + 1);
}

// The kernel's view of one CopyBlock.
GOODPUT_HD constexpr BlockDesc describe_block(long long src_offset, long long src_ld,
                                              long long dst_offset, long long dst_ld,
                                              long long rows, long long ncols) {
  BlockDesc b;
  b.src_offset = src_offset;
  b.src_ld = src_ld;
  b.dst_offset = dst_offset;
  b.dst_ld = dst_ld;
  b.rows = rows;
  b.ncols = ncols;
  b.vec = choose_vec(ncols);
  b.windows = windows_per_row(ncols, b.vec);
  return b;
}

struct Window {
  long long dst = 0;      // first destination element
  long long src = 0;      // its source element
  int count = 0;          // elements in this window (0 .. vec)
  bool vector = false;    // copied with vector accesses
  int shift = 0;          // vector windows: src % vec, the merge offset
  long long src_vec = 0;  // vector windows: first aligned source element loaded
  int loads = 0;          // vector windows: aligned source vectors loaded (1 if shift == 0, else 2)
};

// Window k of row `row` of block b. Vector windows load src vectors
// [src_vec, src_vec + loads * vec) and store  out[i] = loaded[i + shift], i < vec.
GOODPUT_HD inline Window window_of(const BlockDesc& b, unsigned row, unsigned k,
                                   long long src_elems) {
  const long long s0 = b.src_offset + static_cast<long long>(row) * b.src_ld;
  const long long d0 = b.dst_offset + static_cast<long long>(row) * b.dst_ld;
  const long long v = b.vec;
  Window w;
  if (v == 1) {
    w.count = static_cast<long long>(k) < b.ncols ? 1 : 0;
    w.dst = d0 + k;
    w.src = s0 + k;
    return w;
  }
  // vec is a power of two and offsets are >= 0: masks, not 64-bit divisions, on the device.
  const long long start = (d0 & ~(v - 1)) + static_cast<long long>(k) * v;  // aligned in dst
  const long long lo = start > d0 ? start : d0;
  const long long hi = start + v < d0 + b.ncols ? start + v : d0 + b.ncols;
  w.count = hi > lo ? static_cast<int>(hi - lo) : 0;
  w.dst = lo;
  w.src = s0 + (lo - d0);
  if (w.count == v) {
    w.shift = static_cast<int>(w.src & (v - 1));
    w.src_vec = w.src - w.shift;
    w.loads = w.shift == 0 ? 1 : 2;
    w.vector = w.src_vec + w.loads * v <= src_elems;
  }
  return w;
}

}  // namespace goodput::calib::addr
