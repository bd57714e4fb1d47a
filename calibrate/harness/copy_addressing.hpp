// Addressing of the reshard pack/unpack kernel: which bf16 elements go where, and at which
// vector width. Shared verbatim by the CUDA kernel (reshard_kernels.cu) and the CPU test
// (tests/test_copy_addressing.cpp), so the test runs the kernel's exact index arithmetic.
// Contract: a block (CopyBlock, reshard_map.hpp) copies `rows` row segments of `ncols`
// elements. Each row is cut into windows aligned to `vec` elements in the destination buffer;
// a full window whose source vectors lie inside the source buffer is a vector window (one or
// two aligned source loads, merged by `shift` elements, one aligned store), every other window
// (row edges, buffer end) is copied element by element. Buffers must start 16-byte aligned.
// Offsets and leading dimensions are >= 0, buffers hold at most kMaxElems elements (32-bit
// indices; describable() says so) and vec is a power of two. No access leaves
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
// Buffers of up to 2^30 elements (2 GiB of bf16): every index below fits a 32-bit int, so the
// kernel does 32-bit arithmetic (the harness's largest shard buffer is about 2^26).
inline constexpr long long kMaxElems = 1LL << 30;

// Exact n / d for n < 2^31 by a multiply-high and a shift (CUTLASS's FastDivmod): the
// kernel's row = window index / windows per row without an emulated 32-bit division.
struct FastDiv {
  unsigned magic = 1;
  int shift = 0;
};

GOODPUT_HD constexpr FastDiv make_fast_div(unsigned d) {  // d >= 1
  int l = 0;
  while ((1ULL << l) < d) ++l;
  FastDiv f;
  f.magic = static_cast<unsigned>(((1ULL << 32) * ((1ULL << l) - d)) / d + 1);
  f.shift = l;
  return f;
}

GOODPUT_HD inline unsigned fast_div(unsigned n, const FastDiv& f) {
#if defined(__CUDA_ARCH__)
  const unsigned hi = __umulhi(n, f.magic);  // the same high 32 bits, one instruction
#else
  const auto hi = static_cast<unsigned>((static_cast<unsigned long long>(n) * f.magic) >> 32);
#endif
  return (hi + n) >> f.shift;
}

// One block as the kernel sees it (elements; `vec`, `windows`, `div` set by describe_block).
struct BlockDesc {
  int src_offset = 0, src_ld = 0, dst_offset = 0, dst_ld = 0, rows = 0, ncols = 0;
  int vec = 1;           // elements per vector access: 8, 4, 2 or 1 (1 = scalar only)
  unsigned windows = 0;  // windows per row (an upper bound; trailing ones may be empty)
  FastDiv div;           // division by `windows`
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

// True when a block of buffers with these sizes can be described (32-bit indices, < 2^31
// windows in all); the caller refuses the block otherwise.
GOODPUT_HD constexpr bool describable(long long src_elems, long long dst_elems, long long rows,
                                      long long ncols) {
  return src_elems <= kMaxElems && dst_elems <= kMaxElems && rows >= 1 && ncols >= 1 &&
         rows * static_cast<long long>(windows_per_row(ncols, choose_vec(ncols))) < (1LL << 31);
}

// The kernel's view of one CopyBlock (whose extents lie inside buffers that are describable()).
GOODPUT_HD constexpr BlockDesc describe_block(long long src_offset, long long src_ld,
                                              long long dst_offset, long long dst_ld,
                                              long long rows, long long ncols) {
  BlockDesc b;
  b.src_offset = static_cast<int>(src_offset);
  b.src_ld = static_cast<int>(src_ld);
  b.dst_offset = static_cast<int>(dst_offset);
  b.dst_ld = static_cast<int>(dst_ld);
  b.rows = static_cast<int>(rows);
  b.ncols = static_cast<int>(ncols);
  // A block whose rows start and end on 16-byte boundaries on both sides (the aligned reshard
  // plans' moves) is all full vectors whatever its width; otherwise the width decides.
  const long long full = kMaxVecElems;
  const bool aligned = src_offset % full == 0 && src_ld % full == 0 && dst_offset % full == 0 &&
                       dst_ld % full == 0 && ncols % full == 0;
  b.vec = aligned ? kMaxVecElems : choose_vec(ncols);
  b.windows = windows_per_row(ncols, b.vec);
  b.div = make_fast_div(b.windows);
  return b;
}

struct Window {
  int dst = 0;          // first destination element
  int src = 0;          // its source element
  int count = 0;        // elements in this window (0 .. vec)
  bool vector = false;  // copied with vector accesses
  int shift = 0;        // vector windows: src % vec, the merge offset
  int src_vec = 0;      // vector windows: first aligned source element loaded
  int loads = 0;        // vector windows: aligned source vectors loaded (1 if shift == 0, else 2)
};

// Window k of row `row` of block b. Vector windows load src vectors
// [src_vec, src_vec + loads * vec) and store  out[i] = loaded[i + shift], i < vec.
GOODPUT_HD inline Window window_of(const BlockDesc& b, unsigned row, unsigned k, int src_elems) {
  const int r = static_cast<int>(row);
  const int s0 = b.src_offset + r * b.src_ld;
  const int d0 = b.dst_offset + r * b.dst_ld;
  const int v = b.vec;
  Window w;
  if (v == 1) {
    w.count = static_cast<int>(k) < b.ncols ? 1 : 0;
    w.dst = d0 + static_cast<int>(k);
    w.src = s0 + static_cast<int>(k);
    return w;
  }
  // vec is a power of two and offsets are >= 0: masks, not divisions.
  const int start = (d0 & ~(v - 1)) + static_cast<int>(k) * v;  // aligned in dst
  const int end = d0 + b.ncols;
  const int lo = start > d0 ? start : d0;
  const int hi = start + v < end ? start + v : end;
  w.count = hi > lo ? hi - lo : 0;
  w.dst = lo;
  w.src = s0 + (lo - d0);
  if (w.count == v) {
    w.shift = w.src & (v - 1);
    w.src_vec = w.src - w.shift;
    w.loads = w.shift == 0 ? 1 : 2;
    w.vector = w.src_vec + w.loads * v <= src_elems;
  }
  return w;
}

// The kernel's loop body: flat window index idx in [0, rows * windows) -> its Window.
GOODPUT_HD inline Window window_at(const BlockDesc& b, unsigned idx, int src_elems) {
  const unsigned row = fast_div(idx, b.div);
  return window_of(b, row, idx - row * b.windows, src_elems);
}

}  // namespace goodput::calib::addr
