#include "calibrate/harness/fused_attention_bench.hpp"

#if GOODPUT_HAVE_CUDNN
#include <cudnn_graph.h>
#endif

namespace goodput::calib {

FusedAttentionSupport fused_attention_support() {
#if GOODPUT_HAVE_CUDNN
  const std::size_t v = cudnnGetVersion();  // major * 10000 + minor * 100 + patch (cuDNN 9)
  FusedAttentionSupport s;
  s.library = "cuDNN " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
              std::to_string(v % 100);
  s.why_not = s.library +
              " found, but the causal SDPA operation graph is not implemented in this harness "
              "yet (cudnn-frontend is not available; see harness/fused_attention_bench.hpp)";
  return s;
#else
  return {false, "", "built without cuDNN (CMake found no cudnn_graph.h and libcudnn)"};
#endif
}

std::optional<AttentionEntry> bench_fused_attention(BenchContext& ctx, const AttentionJob& job) {
  // Nothing is timed until the causal SDPA graph exists (fused_attention_support says why).
  (void)ctx;
  (void)job;
  return std::nullopt;
}

}  // namespace goodput::calib
