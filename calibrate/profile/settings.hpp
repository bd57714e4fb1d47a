// Measurement discipline of goodput-calibrate, in one place (STYLE item 9).
// Contract: every constant the harness uses to decide how long to measure, how to defeat
// caches and how strictly to verify lives here, with the reason for its value. The values
// are copied into each profile's "settings" so a profile says how it was measured.
// Plain C++: the stopping rule that consumes StopSettings is unit-tested on the CPU.
#pragma once

#include <cstdint>

namespace goodput::calib {

// When to stop repeating one measurement.
struct StopSettings {
  int warmup_runs = 0;             // untimed runs first: JIT/heuristic caches, clocks ramping
  int min_samples = 0;             // never judge convergence on fewer samples than this
  int max_samples = 0;             // hard cap on timed samples
  double rel_stderr_target = 0.0;  // stop when stddev/sqrt(n)/median falls below this
  double max_measured_s = 0.0;     // cap on the sum of timed samples
  double max_wall_s = 0.0;         // cap on wall time per entry (includes flushes, syncs)
};

// Full run. 0.5% relative standard error of the mean is well inside the run-to-run spread of
// GPU kernels (clock and thermal noise are ~1-2%), so more samples would not buy accuracy;
// 10 samples minimum keeps p10/p90 meaningful; the caps bound a full standard-set run
// (about 200 entries) to a few minutes even when some kernel never settles.
inline constexpr StopSettings kFullStop{
    .warmup_runs = 5,
    .min_samples = 10,
    .max_samples = 400,
    .rel_stderr_target = 0.005,
    .max_measured_s = 1.0,
    .max_wall_s = 3.0,
};

// --quick: a smoke run. Enough samples for a median, nothing more.
inline constexpr StopSettings kQuickStop{
    .warmup_runs = 2,
    .min_samples = 5,
    .max_samples = 30,
    .rel_stderr_target = 0.02,
    .max_measured_s = 0.2,
    .max_wall_s = 1.0,
};

// L2 is flushed before every timed sample by a read-only sweep over a scratch buffer of
// max(kL2FlushFactor * L2 size, kL2FlushMinBytes) bytes (nvbench flushes with 1x L2; 2x
// covers L2 set-aside and replacement-policy effects). Reading, not writing (a memset), so no
// dirty line is left for the timed operation to write back. The flush is outside the events.
inline constexpr int kL2FlushFactor = 2;
inline constexpr std::int64_t kL2FlushMinBytes = std::int64_t{256} << 20;

// Ceilings: a large square bf16 GEMM (compute bound on every current GPU) and a large
// device-to-device copy (>= 1 GiB so launch overhead and caches are irrelevant).
inline constexpr std::int64_t kCeilingGemmDim = 8192;
inline constexpr std::int64_t kCopyCeilingBytes = std::int64_t{1} << 30;

// cuBLASLt workspace: 32 MiB is what NVIDIA recommends for Hopper/Blackwell kernels
// (smaller workspaces exclude some split-K / stream-K algorithms).
inline constexpr std::int64_t kCublasLtWorkspaceBytes = std::int64_t{32} << 20;

// GEMM verification, once per kernel, outside the timed loop: kGemmVerifyPoints output
// elements sampled at random are recomputed in fp64 from the same bf16 inputs. A point
// passes when |got - ref| <= rtol * |ref| + atol_rel * sum_p |a_ip * b_pj|:
// rtol = 2^-7 is twice bf16's half-ulp output rounding (2^-8), atol_rel = 1e-4 bounds fp32
// accumulation error for K up to ~1e5 with margin; a wrong index or layout is off by O(|ref|).
// A split-K algorithm that reduces its S partial sums in bf16 (cuBLASLt's OUTPUT_TYPE scheme,
// which PyTorch allows by default) rounds each partial and each of their sums: at most
// S * 2^-8 * sum_p |a_ip * b_pj| more, added to the tolerance for such algorithms only: they
// are timed as training runs them, not forbidden. On an H200 the heuristic picked one for
// 512 x 858 x 768 (split 4: 1.7x the plain tolerance); none for the standard set's shapes.
inline constexpr double kGemmVerifyBf16ReductionRel = 1.0 / 256.0;  // per split
inline constexpr int kGemmVerifyPoints = 512;
inline constexpr double kGemmVerifyRtol = 1.0 / 128.0;
inline constexpr double kGemmVerifyAtolRel = 1e-4;

// Memory-bound kernels (memory_bench.cpp), verified once outside the timed loop on a slice:
// kMemoryVerifyRows rows (the first, the last and random ones; adam: windows of
// kAdamVerifyWindow parameters) recomputed in double on the CPU (harness/memory_reference.hpp)
// from the same inputs. A bf16 output passes when |got - ref| <= rtol |ref| + atol scale, with
// rtol = 2^-7, twice bf16's half-ulp output rounding, and atol = 1e-4 of the outputs' scale
// (1 for norms and activations, 1/cols for softmax) for fp32 statistics; adam's fp32 state
// passes within 1e-5 relative (fp32 rounding of a few operations), its bf16 copy within 2^-7.
inline constexpr int kMemoryVerifyRows = 8;
inline constexpr std::int64_t kAdamVerifyWindow = 1024;
inline constexpr double kMemoryVerifyRtol = 1.0 / 128.0;
inline constexpr double kMemoryVerifyAtol = 1e-4;
inline constexpr double kAdamVerifyRtol = 1e-5;

// Inputs are uniform in +-[0.5, 1]: never zero (zeros lower power and flatter the GEMM).
inline constexpr float kRandomMinMagnitude = 0.5F;

}  // namespace goodput::calib
