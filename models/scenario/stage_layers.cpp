#include "models/scenario/stage_layers.hpp"

#include <numeric>
#include <string>

#include "sim/core/error.hpp"

namespace goodput {

std::vector<int> stage_layers(const Scenario& s) {
  if (s.job.model.is_null()) {
    if (!s.job.stage_layers.empty())
      throw InputError(s.file, "/job/stage_layers",
                       "needs /job/model (its layers are what the stages split)");
    return {};
  }
  const int layers = s.job.model["layers"].get<int>();
  const int pp = s.job.pp, v = s.job.virtual_stages;
  std::vector<int> out = s.job.stage_layers;
  if (out.empty()) {
    if (layers % pp != 0)
      throw InputError(
          s.file, "/job/model/layers",
          std::to_string(layers) + " layers do not split into " + std::to_string(pp) +
              " pipeline stages of whole layers; declare the uneven split in /job/stage_layers "
              "(e.g. fewer layers on the first and last stages, which hold the embedding and the "
              "LM head, as Megatron-LM's --decoder-first/last-pipeline-num-layers do)");
    out.assign(static_cast<std::size_t>(pp), layers / pp);
  } else {
    if (static_cast<int>(out.size()) != pp)
      throw InputError(s.file, "/job/stage_layers",
                       "has " + std::to_string(out.size()) + " entries; /job/pp is " +
                           std::to_string(pp) +
                           " (one per pipeline stage; [] splits the layers evenly, e.g. when "
                           "sweeping /job/pp)");
    const long long sum = std::accumulate(out.begin(), out.end(), 0LL);
    if (sum != layers)
      throw InputError(s.file, "/job/stage_layers",
                       "sums to " + std::to_string(sum) + " layers; /job/model/layers is " +
                           std::to_string(layers));
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] < v)
      throw InputError(
          s.file,
          out.size() == s.job.stage_layers.size() ? "/job/stage_layers" : "/job/model/layers",
          "stage " + std::to_string(i) + " holds " + std::to_string(out[i]) +
              " layers, fewer than its " + std::to_string(v) + " chunks (/job/virtual_stages)");
  return out;
}

}  // namespace goodput
