// The memory-bound kernel jobs of the calibration plan (sizes documented in plan.hpp).
#include <algorithm>

#include "calibrate/profile/plan.hpp"

namespace goodput::calib {
namespace {

void add(std::vector<MemoryKernelJob>& jobs, const std::string& model, int tp, MemoryKernel kernel,
         std::int64_t rows, std::int64_t cols) {
  const std::int64_t per_row = memory_kernel_bytes(kernel, 1, cols);
  rows = std::clamp<std::int64_t>(kMemoryKernelMaxBytes / per_row, 1, rows);
  for (MemoryKernelJob& j : jobs) {
    if (j.kernel == kernel && j.rows == rows && j.cols == cols) {
      if (std::find(j.tp.begin(), j.tp.end(), tp) == j.tp.end()) j.tp.push_back(tp);
      return;
    }
  }
  jobs.push_back({model, {tp}, kernel, rows, cols, memory_kernel_bytes(kernel, rows, cols)});
}

}  // namespace

std::int64_t adam_shard_params(const ModelShape& shape, const StepLayout& l, int tp) {
  const std::int64_t layers = ceil_div(l.layers, l.pp);
  const std::int64_t embed = std::int64_t{l.vocab} * shape.hidden * (l.pp == 1 ? 2 : 1);
  const std::int64_t stage = layers * layer_params(shape) + embed;
  return ceil_div(stage, std::int64_t{tp} * l.dp);
}

std::vector<MemoryKernelJob> memory_kernel_jobs(const ProfiledModel& m) {
  const ModelShape& s = m.shape;
  std::vector<int> degrees{m.tp_max};
  if (m.tp_min != m.tp_max) degrees.push_back(m.tp_min);
  const std::int64_t tokens = s.tokens();
  const MemoryKernel norm = s.gated_mlp ? MemoryKernel::rmsnorm : MemoryKernel::layernorm;
  const MemoryKernel act = s.gated_mlp ? MemoryKernel::swiglu : MemoryKernel::gelu;
  std::vector<MemoryKernelJob> jobs;
  for (int t : degrees) add(jobs, s.name, t, norm, ceil_div(tokens, t), s.hidden);
  add(jobs, s.name, 1, norm, tokens, s.hidden);  // without sequence parallelism
  for (int t : degrees) add(jobs, s.name, t, act, tokens, ffn_local(s, t));
  if (m.layout) {
    for (int t : degrees)
      add(jobs, s.name, t, MemoryKernel::softmax, tokens, ceil_div(m.layout->vocab, t));
    for (int t : degrees)
      add(jobs, s.name, t, MemoryKernel::adam, adam_shard_params(s, *m.layout, t), 1);
  }
  return jobs;
}

MemoryKernelEntry entry_of(const MemoryKernelJob& job) {
  MemoryKernelEntry e;
  e.model = job.model;
  e.tp = job.tp;
  e.kernel = job.kernel;
  e.rows = job.rows;
  e.cols = job.cols;
  e.bytes = job.bytes;
  e.dtype = memory_kernel_dtype(job.kernel);
  return e;
}

}  // namespace goodput::calib
