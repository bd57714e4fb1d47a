// Reshard transfers across GPUs, when the machine has two or more: a peer copy (device ->
// next device, cudaMemcpyPeerAsync) and an NCCL all-to-all over all visible devices (up to 8).
// Contract: both move `job.bytes` per rank and are verified by exact comparison. Bandwidths
// are link figures, not read+write: peer GB/s = bytes / time; NCCL GB/s = nccl-tests' bus
// bandwidth = bytes / time * (n - 1) / n. nccl_status() is what the profile records.
#pragma once

#include <string>
#include <vector>

#include "calibrate/harness/bench_context.hpp"
#include "calibrate/profile/plan.hpp"

namespace goodput::calib {

std::string nccl_status(int device_count);  // "measured" | "single_gpu" | "not_built"

std::vector<ReshardEntry> bench_multi_gpu(BenchContext& ctx, const ReshardJob& job);

}  // namespace goodput::calib
