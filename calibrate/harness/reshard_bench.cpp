#include "calibrate/harness/reshard_bench.hpp"

#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "calibrate/harness/cuda_check.hpp"
#include "calibrate/harness/kernels.hpp"
#include "calibrate/profile/reshard_map.hpp"

namespace goodput::calib {
namespace {

using Elem = std::uint16_t;  // bf16 bits: copies are bit-exact

std::vector<Elem> to_host(const DeviceBuffer& buf, cudaStream_t stream) {
  std::vector<Elem> host(static_cast<std::size_t>(buf.bytes()) / sizeof(Elem));
  GOODPUT_CUDA(cudaMemcpyAsync(host.data(), buf.get(), static_cast<std::size_t>(buf.bytes()),
                               cudaMemcpyDeviceToHost, stream));
  GOODPUT_CUDA(cudaStreamSynchronize(stream));
  return host;
}

// Source and destination sizes (elements) and block list of a pack/unpack job.
struct Layout {
  std::int64_t src_elems = 0, dst_elems = 0;
  std::vector<CopyBlock> blocks;
};

Layout layout_of(const ReshardJob& job) {
  const ReshardPlan p = make_reshard_plan(job.cols, job.n1, job.n2);
  const std::int64_t rows = job.rows;
  Layout l;
  if (job.kernel == "pack" && job.role == "extra") {
    l.blocks = pack_at_extra(p, job.rank, rows);
    l.src_elems = rows * p.shard_cols(job.rank);
    l.dst_elems = rows * p.sent_cols(job.rank);
  } else if (job.kernel == "unpack" && job.role == "core") {
    l.blocks = unpack_at_core(p, job.rank, rows);
    l.src_elems = rows * p.received_cols(job.rank);
    l.dst_elems = rows * p.extended_cols(job.rank);
  } else if (job.kernel == "pack" && job.role == "core") {
    l.blocks = pack_at_core(p, job.rank, rows);
    l.src_elems = rows * p.extended_cols(job.rank);
    l.dst_elems = rows * p.received_cols(job.rank);
  } else if (job.kernel == "unpack" && job.role == "extra") {
    l.blocks = unpack_at_extra(p, job.rank, rows);
    l.src_elems = rows * p.sent_cols(job.rank);
    l.dst_elems = rows * p.shard_cols(job.rank);
  } else {
    throw std::invalid_argument("no pack/unpack layout for kernel " + job.kernel + " role " +
                                job.role);
  }
  return l;
}

// Whole-buffer check of a device-to-device copy on a few hundred sampled 4 KiB windows.
bool same_sampled(const DeviceBuffer& a, const DeviceBuffer& b, std::int64_t bytes,
                  cudaStream_t s) {
  constexpr std::int64_t kWindow = 4096;
  std::mt19937_64 rng(42);
  std::vector<char> x(kWindow), y(kWindow);
  for (int i = 0; i < 256; ++i) {
    const std::int64_t off =
        bytes > kWindow
            ? static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(bytes - kWindow))
            : 0;
    const auto n = static_cast<std::size_t>(std::min(kWindow, bytes));
    GOODPUT_CUDA(cudaMemcpyAsync(x.data(), static_cast<const char*>(a.get()) + off, n,
                                 cudaMemcpyDeviceToHost, s));
    GOODPUT_CUDA(cudaMemcpyAsync(y.data(), static_cast<const char*>(b.get()) + off, n,
                                 cudaMemcpyDeviceToHost, s));
    GOODPUT_CUDA(cudaStreamSynchronize(s));
    if (std::memcmp(x.data(), y.data(), n) != 0) return false;
  }
  return true;
}

void finish(BenchContext& ctx, ReshardEntry& e) {
  e.gbps = 2.0 * static_cast<double>(e.bytes) / e.time_s.median / 1e9;
  e.fraction_of_ceiling = ctx.copy_ceiling_gbps > 0 ? e.gbps / ctx.copy_ceiling_gbps : 0.0;
}

}  // namespace

Verification bench_copy_ceiling(BenchContext& ctx, Ceilings& ceilings) {
  const std::int64_t bytes = kCopyCeilingBytes;
  DeviceBuffer src(bytes), dst(bytes);
  fill_random_bf16(src.get(), bytes / 2, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
  auto op = [&](cudaStream_t s) {
    GOODPUT_CUDA(cudaMemcpyAsync(dst.get(), src.get(), static_cast<std::size_t>(bytes),
                                 cudaMemcpyDeviceToDevice, s));
  };
  op(ctx.stream());
  const bool ok = same_sampled(src, dst, bytes, ctx.stream());
  const TimeStats t = ctx.timer().measure(op, ctx.stop());
  ceilings.copy_gbps = 2.0 * static_cast<double>(bytes) / t.median / 1e9;
  ceilings.copy_bytes = bytes;
  ctx.copy_ceiling_gbps = ceilings.copy_gbps;
  return ok ? Verification::passed : Verification::failed;
}

ReshardEntry bench_reshard(BenchContext& ctx, const ReshardJob& job) {
  ReshardEntry e = entry_of(job);
  if (job.kernel == "d2d") {
    DeviceBuffer src(job.bytes), dst(job.bytes);
    fill_random_bf16(src.get(), job.bytes / 2, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
    auto op = [&](cudaStream_t s) {
      GOODPUT_CUDA(cudaMemcpyAsync(dst.get(), src.get(), static_cast<std::size_t>(job.bytes),
                                   cudaMemcpyDeviceToDevice, s));
    };
    op(ctx.stream());
    e.verification = same_sampled(src, dst, job.bytes, ctx.stream()) ? Verification::passed
                                                                     : Verification::failed;
    e.time_s = ctx.timer().measure(op, ctx.stop());
    finish(ctx, e);
    return e;
  }
  const Layout l = layout_of(job);
  if (payload_elems(l.blocks) * 2 != job.bytes) throw std::logic_error("reshard payload mismatch");
  DeviceBuffer src(2 * l.src_elems), dst(2 * l.dst_elems);
  fill_random_bf16(src.get(), l.src_elems, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
  fill_random_bf16(dst.get(), l.dst_elems, ctx.next_seed(), kRandomMinMagnitude, ctx.stream());
  const CopyPlan plan(l.blocks, l.src_elems, ctx.device().sm_count, ctx.stream());
  // Verify: the whole destination must equal the CPU reference applied to the same inputs.
  const std::vector<Elem> host_src = to_host(src, ctx.stream());
  std::vector<Elem> expected = to_host(dst, ctx.stream());
  apply_blocks(host_src.data(), expected.data(), l.blocks);
  plan.launch(src.get(), dst.get(), ctx.stream());
  e.verification =
      to_host(dst, ctx.stream()) == expected ? Verification::passed : Verification::failed;
  e.time_s = ctx.timer().measure([&](cudaStream_t s) { plan.launch(src.get(), dst.get(), s); },
                                 ctx.stop());
  finish(ctx, e);
  return e;
}

}  // namespace goodput::calib
