#include "calibrate/profile/profile_schema.hpp"

#include <string>
#include <vector>

#include "calibrate/profile/profile_types.hpp"

namespace goodput::calib::profile_sections {

namespace {

using namespace goodput::param;

// Builders for the format's recurring shapes. Every key of a profile is required; `nullable`
// marks those that may be null. count32 fills an int: the reader's integer32 refuses a value
// above INT32_MAX by name.
ParamDecl count32(const char* key, double min, const char* unit, const char* doc) {
  return integer(key, unit, Json(), min, kInf, doc);
}
ParamDecl count64(const char* key, double min, const char* unit, const char* doc) {
  return integer(key, unit, Json(), min, kInf, doc);
}
ParamDecl positive(const char* key, const char* unit, const char* doc) {
  return above_min(number(key, unit, Json(), 0, kInf, doc));
}
ParamDecl non_negative(const char* key, const char* unit, const char* doc) {
  return number(key, unit, Json(), 0, kInf, doc);
}
ParamDecl words(const char* key, const char* doc) {
  return text(key, Json(), doc);
}
ParamDecl flag(const char* key, const char* doc) {
  ParamDecl d = boolean(key, false, doc);
  d.default_value = Json();  // required, like every key of a profile
  return d;
}
ParamDecl one_of(const char* key, std::vector<std::string> choices, const char* doc) {
  return choice(key, std::move(choices), Json(), doc);
}
ParamDecl section(const char* key, const ParamSection& nested, const char* doc) {
  return required(object(key, &nested, doc));
}
ParamDecl list(const char* key, const ParamSection& nested, const char* doc) {
  return required(objects(key, &nested, doc));
}
const std::vector<std::string> kVerification = enum_choices(kVerificationNames);

}  // namespace

const ParamSection& clock_range() {
  static const ParamSection s{
      "clock range",
      "a clock sampled during the run",
      {non_negative("min", "MHz", "lowest sample"), non_negative("median", "MHz", "median sample"),
       non_negative("max", "MHz", "highest sample")}};
  return s;
}

const ParamSection& clocks() {
  static const ParamSection s{
      "clocks",
      "the device's clocks; the harness never changes them",
      {nullable(count32("sm_max_mhz", 0, "MHz", "maximum SM clock (device attribute)")),
       nullable(count32("mem_max_mhz", 0, "MHz", "maximum memory clock (device attribute)")),
       nullable(section("sm_observed_mhz", clock_range(), "SM clock observed during the run")),
       nullable(section("mem_observed_mhz", clock_range(), "memory clock observed during the run")),
       one_of("observed_via", {"nvml", "none", "datasheet"},
              "where the observed clocks come from (none: NVML absent)")}};
  return s;
}

const ParamSection& device() {
  static const ParamSection s{
      "device",
      "the GPU the profile describes",
      {words("name", "device name as the driver reports it"),
       count32("sm_count", 0, "SMs", "streaming multiprocessors"),
       count64("memory_bytes", 0, "bytes", "device memory"),
       nullable(count64("l2_bytes", 0, "bytes", "L2 cache size")),
       words("compute_capability", "e.g. \"9.0\""),
       count32("device_count", 0, "GPUs", "visible devices (0 for an analytical profile)"),
       section("clocks", clocks(), "maximum and observed clocks"),
       nullable(count32("driver_version", 0, "", "CUDA driver version (e.g. 13000)")),
       nullable(count32("cuda_runtime_version", 0, "", "CUDA runtime version")),
       nullable(count32("cublas_version", 0, "", "cuBLAS version")),
       nullable(count32("nccl_version", 0, "", "NCCL version (null: not built with NCCL)"))}};
  return s;
}

const ParamSection& stop() {
  static const ParamSection s{
      "stopping rule",
      "when the harness stops sampling an entry",
      {count32("warmup_runs", 0, "runs", "untimed runs first"),
       count32("min_samples", 1, "samples", "never judge convergence on fewer"),
       count32("max_samples", 1, "samples", "hard cap on timed samples"),
       positive("rel_stderr_target", "", "stop when stddev / sqrt(n) / median falls below this"),
       positive("max_measured_s", "s", "cap on the sum of timed samples"),
       positive("max_wall_s", "s", "cap on wall time per entry")}};
  return s;
}

const ParamSection& measurement() {
  static const ParamSection s{
      "measurement",
      "how a measured profile was measured (null in an analytical profile)",
      {flag("quick", "--quick was given (looser stopping rule)"),
       section("stop", stop(), "the stopping rule"),
       count64("l2_flush_bytes", 0, "bytes", "scratch swept before every sample to flush L2"),
       count32("gemm_verify_points", 1, "points", "output elements checked per GEMM call"),
       positive("gemm_verify_rtol", "", "relative tolerance of the GEMM check"),
       non_negative("gemm_verify_atol_rel", "",
                    "absolute tolerance, relative to the sum of abs(a b)"),
       count64("cublaslt_workspace_bytes", 0, "bytes", "cuBLASLt workspace"),
       one_of("nccl", {"measured", "single_gpu", "not_built"},
              "whether peer and NCCL all-to-all entries were measured"),
       words("scenario", "the scenario whose shapes were measured, or \"builtin\"")}};
  return s;
}

const ParamSection& analytical_model() {
  static const ParamSection s{
      "analytical model",
      "the datasheet model of an analytical profile (null in a measured profile)",
      {words("gpu", "H100, H200, B200 or GB200"), words("datasheet", "citation of the peaks used"),
       positive("e_max", "", "GEMM efficiency limit for large shapes"),
       non_negative("d_half", "", "smallest GEMM dimension at which efficiency is e_max / 2"),
       non_negative("launch_s", "s", "fixed per-kernel overhead"),
       positive("hbm_efficiency", "", "share of the HBM peak a copy reaches")}};
  return s;
}

const ParamSection& settings() {
  static const ParamSection s{
      "settings",
      "how the entries were produced; exactly one of measurement and analytical_model is set, "
      "by source",
      {one_of("gemm_impl", {"cublasLt", "analytical"}, "GEMM implementation"),
       one_of("attention_impl", {"cublas_causal_blocked", "cublas_strided_batched", "analytical"},
              "attention implementation"),
       words("attention_scope", "what the attention entries include"),
       nullable(section("measurement", measurement(), "measurement settings")),
       nullable(section("analytical_model", analytical_model(), "analytical model settings"))}};
  return s;
}

const ParamSection& model() {
  static const ParamSection s{
      "model",
      "a model the shapes were taken from, and its TP range",
      {words("name", "model name"), count32("hidden", 1, "", "hidden size"),
       count32("heads", 1, "", "attention heads"), count32("kv_heads", 1, "", "key/value heads"),
       count32("ffn", 1, "", "MLP inner size"),
       flag("gated_mlp", "gated MLP (SwiGLU: two up projections)"),
       count32("seq_len", 1, "tokens", "sequence length"),
       count32("micro_batch", 1, "sequences", "micro-batch size"),
       count32("tp_max", 1, "GPUs", "highest TP degree profiled"),
       count32("tp_min", 1, "GPUs", "lowest TP degree profiled (<= tp_max)")}};
  return s;
}

const ParamSection& ceilings() {
  static const ParamSection s{
      "ceilings",
      "the device's measured (or datasheet) peaks, which fraction_of_ceiling divides by",
      {one_of("kind", {"measured", "datasheet"}, "measured in the same run, or datasheet"),
       positive("gemm_tflops", "TFLOP/s", "an 8192^3 bf16 GEMM"),
       positive("copy_gbps", "GB/s", "a 1 GiB device-to-device copy (bytes read + written)"),
       count64("gemm_m", 0, "", "the ceiling GEMM's m"),
       count64("gemm_n", 0, "", "the ceiling GEMM's n"),
       count64("gemm_k", 0, "", "the ceiling GEMM's k"),
       count64("copy_bytes", 0, "bytes", "the ceiling copy's payload")}};
  return s;
}

const ParamSection& time_stats() {
  static const ParamSection s{
      "time",
      "an entry's time and how its sampling stopped",
      {positive("median", "s", "median sample"), positive("min", "s", "fastest sample (<= median)"),
       positive("max", "s", "slowest sample (>= median)"), positive("mean", "s", "mean sample"),
       non_negative("spread", "", "(p90 - p10) / median"),
       non_negative("rel_stderr", "", "stddev / sqrt(n) / median"),
       count32("samples", 0, "samples", "timed samples (0: analytical; >= 1 when measured)"),
       one_of("stop",
              {"converged", "sample_cap", "measured_time_cap", "wall_time_cap", "analytical"},
              "which rule stopped the sampling")}};
  return s;
}

const ParamSection& gemm_entry() {
  static const ParamSection s{
      "GEMM entry",
      "one GEMM shape of a layer, timed (or modelled)",
      {words("model", "the model (of models) the shape was taken from"),
       integers("tp", "GPUs", Json(), 1, 1'000'000, "TP degrees that run exactly this shape"),
       one_of("name", {"qkv", "attn_out", "mlp_up", "mlp_down", "attention"}, "which GEMM"),
       one_of("pass", enum_choices(kPassNames), "forward or backward pass"),
       count64("m", 1, "", "rows of C"), count64("n", 1, "", "columns of C"),
       count64("k", 1, "", "inner dimension"), count64("batch", 1, "", "batched GEMMs"),
       one_of("layout", {"TN", "NN", "NT", "-"}, "cuBLAS column-major operations"),
       one_of("dtype", {"bf16"}, "element type"), section("time_s", time_stats(), "its time"),
       positive("tflops", "TFLOP/s", "FLOPs / median time"),
       positive("fraction_of_ceiling", "", "tflops / ceilings.gemm_tflops"),
       words("algo", "the cuBLASLt algorithm chosen"),
       one_of("verification", kVerification, "the fp64 check of its output")}};
  return s;
}

const ParamSection& reshard_entry() {
  static const ParamSection s{
      "reshard entry",
      "one reshard kernel of a TP n1 -> n2 change, timed (or modelled)",
      {count32("n1", 1, "GPUs", "healthy TP degree"),
       count32("n2", 1, "GPUs", "degraded TP degree"),
       count64("cols", 1, "", "columns of the weight"), count64("rows", 1, "", "rows moved"),
       count64("bytes", 1, "bytes", "payload (each byte read once and written once)"),
       one_of("kernel", {"pack", "unpack", "d2d", "peer", "nccl_all_to_all"}, "which kernel"),
       one_of("role", {"extra", "core", "any"}, "the rank it runs on"),
       one_of("dtype", {"bf16"}, "element type"), section("time_s", time_stats(), "its time"),
       positive("gbps", "GB/s", "bandwidth, normalised as the README says"),
       positive("fraction_of_ceiling", "", "gbps / ceilings.copy_gbps"),
       one_of("verification", kVerification, "the bit-exact check of its output")}};
  return s;
}

const ParamSection& fit_stats() {
  static const ParamSection s{
      "fit statistics",
      "how well the fit predicts entries it did not see",
      {one_of("method", {"leave_one_out", "none"}, "how the error was measured"),
       count32("held_out", 0, "entries", "entries predicted"),
       non_negative("max_rel_error", "", "largest relative error"),
       non_negative("median_rel_error", "", "median relative error")}};
  return s;
}

const ParamSection& fit() {
  static const ParamSection s{"fit",
                              "the fit's leave-one-out errors",
                              {section("gemm", fit_stats(), "GEMM entries"),
                               section("reshard", fit_stats(), "reshard entries")}};
  return s;
}

const ParamSection& profile() {
  static const ParamSection s{
      "profile",
      "a calibration profile",
      {count32("schema_version", 1, "", "the format's version"),
       one_of("source", enum_choices(kSourceNames), "timed on a GPU, or modelled from a datasheet"),
       words("generator", "e.g. \"goodput-calibrate 0.1.0\""),
       section("device", device(), "the GPU"), section("settings", settings(), "how it was made"),
       list("models", model(), "the models and TP ranges the shapes were taken from"),
       section("ceilings", ceilings(), "the device's peaks"),
       list("gemm", gemm_entry(), "GEMM entries"),
       list("reshard", reshard_entry(), "reshard entries"),
       section("fit", fit(), "the fit's errors")}};
  return s;
}

const std::vector<PlacedSection>& all() {
  static const std::vector<PlacedSection> v = {
      {"/", &profile()},
      {"/device", &device()},
      {"/device/clocks", &clocks()},
      {"/device/clocks/{sm,mem}_observed_mhz", &clock_range()},
      {"/settings", &settings()},
      {"/settings/measurement", &measurement()},
      {"/settings/measurement/stop", &stop()},
      {"/settings/analytical_model", &analytical_model()},
      {"/models/N", &model()},
      {"/ceilings", &ceilings()},
      {"/gemm/N", &gemm_entry()},
      {"/{gemm,reshard}/N/time_s", &time_stats()},
      {"/reshard/N", &reshard_entry()},
      {"/fit", &fit()},
      {"/fit/{gemm,reshard}", &fit_stats()},
  };
  return v;
}

}  // namespace goodput::calib::profile_sections
