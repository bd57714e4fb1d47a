#include "calibrate/profile/profile_schema.hpp"

#include <string>
#include <vector>

namespace goodput::calib::profile_sections {

namespace {

constexpr double kInf = param::kInf;

// Row builders for the format's recurring shapes. Every key of a profile is required (none has
// a default); nullable ones are marked where they are declared.
template <class S>
BoundParam<S> words(std::string S::*m, const char* key, const char* doc) {
  return field::required(field::text(m, key, doc));
}
template <class S>
BoundParam<S> one_of(std::string S::*m, std::vector<std::string> choices, const char* key,
                     const char* doc) {
  return field::required(field::choice(m, std::move(choices), key, doc));
}
template <class S, class E, std::size_t N>
BoundParam<S> one_of(E S::*m, const EnumName<E> (&names)[N], const char* key, const char* doc) {
  return field::required(field::choice(m, names, key, doc));
}
template <class S>
BoundParam<S> flag(bool S::*m, const char* key, const char* doc) {
  return field::required(field::boolean(m, key, doc));
}
// An integer >= min (an int member is refused above INT32_MAX by name).
template <class S, class T>
BoundParam<S> count(T S::*m, const char* key, double min, const char* unit, const char* doc) {
  return field::required(field::integer(m, key, unit, min, kInf, doc));
}
template <class S>
BoundParam<S> non_negative(double S::*m, const char* key, const char* unit, const char* doc) {
  return field::required(field::number(m, key, unit, 0, kInf, doc));
}
template <class S>
BoundParam<S> positive(double S::*m, const char* key, const char* unit, const char* doc) {
  BoundParam<S> p = non_negative(m, key, unit, doc);
  p.decl.min_exclusive = true;
  return p;
}

const BoundSection<ClockRange>& clock_range() {
  using C = ClockRange;
  static const BoundSection<C> s{"clock range",
                                 "a clock sampled during the run",
                                 {non_negative(&C::min, "min", "MHz", "lowest sample"),
                                  non_negative(&C::median, "median", "MHz", "median sample"),
                                  non_negative(&C::max, "max", "MHz", "highest sample")}};
  return s;
}

const BoundSection<Clocks>& clocks() {
  using C = Clocks;
  static const BoundSection<C> s{
      "clocks",
      "the device's clocks; the harness never changes them",
      {field::nullable_integer(&C::sm_max_mhz, "sm_max_mhz", "MHz", 0, kInf,
                               "maximum SM clock (device attribute)"),
       field::nullable_integer(&C::mem_max_mhz, "mem_max_mhz", "MHz", 0, kInf,
                               "maximum memory clock (device attribute)"),
       field::nullable_object(&C::sm_observed_mhz, clock_range(), "sm_observed_mhz",
                              "SM clock observed during the run"),
       field::nullable_object(&C::mem_observed_mhz, clock_range(), "mem_observed_mhz",
                              "memory clock observed during the run"),
       one_of(&C::observed_via, {"nvml", "none", "datasheet"}, "observed_via",
              "where the observed clocks come from (none: NVML absent)")}};
  return s;
}

const BoundSection<DeviceInfo>& device() {
  using D = DeviceInfo;
  static const BoundSection<D> s{
      "device",
      "the GPU the profile describes",
      {words(&D::name, "name", "device name as the driver reports it"),
       count(&D::sm_count, "sm_count", 0, "SMs", "streaming multiprocessors"),
       count(&D::memory_bytes, "memory_bytes", 0, "bytes", "device memory"),
       field::nullable_integer(&D::l2_bytes, "l2_bytes", "bytes", 0, kInf, "L2 cache size"),
       words(&D::compute_capability, "compute_capability", "e.g. \"9.0\""),
       count(&D::device_count, "device_count", 0, "GPUs",
             "visible devices (0 for an analytical profile)"),
       field::object(&D::clocks, clocks(), "clocks", "maximum and observed clocks"),
       field::nullable_integer(&D::driver_version, "driver_version", "", 0, kInf,
                               "CUDA driver version (e.g. 13000)"),
       field::nullable_integer(&D::cuda_runtime_version, "cuda_runtime_version", "", 0, kInf,
                               "CUDA runtime version"),
       field::nullable_integer(&D::cublas_version, "cublas_version", "", 0, kInf, "cuBLAS version"),
       field::nullable_integer(&D::nccl_version, "nccl_version", "", 0, kInf,
                               "NCCL version (null: not built with NCCL)")}};
  return s;
}

const BoundSection<StopSettings>& stop() {
  using T = StopSettings;
  static const BoundSection<T> s{
      "stopping rule",
      "when the harness stops sampling an entry",
      {count(&T::warmup_runs, "warmup_runs", 0, "runs", "untimed runs first"),
       count(&T::min_samples, "min_samples", 1, "samples", "never judge convergence on fewer"),
       count(&T::max_samples, "max_samples", 1, "samples", "hard cap on timed samples"),
       positive(&T::rel_stderr_target, "rel_stderr_target", "",
                "stop when stddev / sqrt(n) / median falls below this"),
       positive(&T::max_measured_s, "max_measured_s", "s", "cap on the sum of timed samples"),
       positive(&T::max_wall_s, "max_wall_s", "s", "cap on wall time per entry")}};
  return s;
}

const BoundSection<MeasureSettings>& measurement() {
  using M = MeasureSettings;
  static const BoundSection<M> s{
      "measurement",
      "how a measured profile was measured (null in an analytical profile)",
      {flag(&M::quick, "quick", "--quick was given (looser stopping rule)"),
       field::object(&M::stop, stop(), "stop", "the stopping rule"),
       count(&M::l2_flush_bytes, "l2_flush_bytes", 0, "bytes",
             "scratch swept before every sample to flush L2"),
       count(&M::gemm_verify_points, "gemm_verify_points", 1, "points",
             "output elements checked per GEMM call"),
       positive(&M::gemm_verify_rtol, "gemm_verify_rtol", "",
                "relative tolerance of the GEMM check"),
       non_negative(&M::gemm_verify_atol_rel, "gemm_verify_atol_rel", "",
                    "absolute tolerance, relative to the sum of abs(a b)"),
       count(&M::cublaslt_workspace_bytes, "cublaslt_workspace_bytes", 0, "bytes",
             "cuBLASLt workspace"),
       one_of(&M::nccl, {"measured", "single_gpu", "not_built"}, "nccl",
              "whether peer and NCCL all-to-all entries were measured"),
       words(&M::scenario, "scenario", "the scenario whose shapes were measured, or \"builtin\"")}};
  return s;
}

const BoundSection<FlashAttentionModel>& flash_attention() {
  using F = FlashAttentionModel;
  static const BoundSection<F> s{
      "flash attention",
      "the analytical profile's causal flash attention (schema_version 3): its share of the "
      "datasheet BF16 peak, in goodput's FLOP count (forward 2 s^2 d per head, backward 2x)",
      {positive(&F::fwd_efficiency, "fwd_efficiency", "", "forward share of the BF16 peak"),
       positive(&F::bwd_efficiency, "bwd_efficiency", "", "backward share of the BF16 peak"),
       words(&F::source, "source", "where the two figures come from")}};
  return s;
}

const BoundSection<AnalyticalSettings>& analytical_model() {
  using A = AnalyticalSettings;
  static const BoundSection<A> s{
      "analytical model",
      "the datasheet model of an analytical profile (null in a measured profile)",
      {words(&A::gpu, "gpu",
             "the GPU: a catalogue entry (goodput describe hardware) or a scenario's "
             "/cluster/gpu_spec name"),
       words(&A::datasheet, "datasheet", "citation of the peaks used"),
       positive(&A::e_max, "e_max", "", "GEMM efficiency limit for large shapes"),
       non_negative(&A::d_half, "d_half", "",
                    "smallest GEMM dimension at which efficiency is e_max / 2"),
       non_negative(&A::launch_s, "launch_s", "s", "fixed per-kernel overhead"),
       positive(&A::hbm_efficiency, "hbm_efficiency", "", "share of the HBM peak a copy reaches"),
       field::nullable_object(&A::flash_attention, flash_attention(), "flash_attention",
                              "causal flash attention's efficiency (schema_version 3; null: "
                              "attention priced as GEMMs on the curve above)")}};
  return s;
}

const BoundSection<Settings>& settings() {
  using T = Settings;
  static const BoundSection<T> s{
      "settings",
      "how the entries were produced; exactly one of measurement and analytical_model is set, "
      "by source",
      {one_of(&T::gemm_impl, {"cublasLt", "analytical"}, "gemm_impl", "GEMM implementation"),
       one_of(&T::attention_impl, {"cublas_causal_blocked", "cublas_strided_batched", "analytical"},
              "attention_impl", "attention implementation"),
       words(&T::attention_scope, "attention_scope", "what the attention entries include"),
       field::nullable_object(&T::measurement, measurement(), "measurement",
                              "measurement settings"),
       field::nullable_object(&T::analytical_model, analytical_model(), "analytical_model",
                              "analytical model settings")}};
  return s;
}

const BoundSection<StepLayout>& step_layout() {
  using L = StepLayout;
  static const BoundSection<L> s{
      "step layout",
      "what the optimizer step's and the loss softmax's sizes were taken from (schema_version 2)",
      {count(&L::layers, "layers", 1, "", "transformer layers of the model"),
       count(&L::vocab, "vocab", 1, "tokens", "vocabulary size"),
       count(&L::pp, "pp", 1, "stages", "pipeline stages"),
       count(&L::dp, "dp", 1, "replicas", "data-parallel replicas (optimizer shards)")}};
  return s;
}

const BoundSection<ProfiledModel>& model() {
  using P = ProfiledModel;
  using M = ModelShape;
  auto shape = [](BoundParam<M> p) { return field::within(&P::shape, std::move(p)); };
  static const BoundSection<P> s{
      "model",
      "a model the shapes were taken from, and its TP range",
      {shape(words(&M::name, "name", "model name")),
       shape(count(&M::hidden, "hidden", 1, "", "hidden size")),
       shape(count(&M::heads, "heads", 1, "", "attention heads")),
       shape(count(&M::kv_heads, "kv_heads", 1, "", "key/value heads")),
       shape(count(&M::ffn, "ffn", 1, "", "MLP inner size")),
       shape(flag(&M::gated_mlp, "gated_mlp", "gated MLP (SwiGLU: two up projections)")),
       shape(count(&M::seq_len, "seq_len", 1, "tokens", "sequence length")),
       shape(count(&M::micro_batch, "micro_batch", 1, "sequences", "micro-batch size")),
       count(&P::tp_max, "tp_max", 1, "GPUs", "highest TP degree profiled"),
       count(&P::tp_min, "tp_min", 1, "GPUs", "lowest TP degree profiled (<= tp_max)"),
       field::nullable_object(&P::layout, step_layout(), "layout",
                              "the step layout (schema_version 2; null: unknown, only the "
                              "layer's memory-bound kernels were planned)")}};
  return s;
}

const BoundSection<Ceilings>& ceilings() {
  using C = Ceilings;
  static const BoundSection<C> s{
      "ceilings",
      "the device's measured (or datasheet) peaks, which fraction_of_ceiling divides by",
      {one_of(&C::kind, {"measured", "datasheet"}, "kind",
              "measured in the same run, or datasheet"),
       positive(&C::gemm_tflops, "gemm_tflops", "TFLOP/s", "an 8192^3 bf16 GEMM"),
       positive(&C::copy_gbps, "copy_gbps", "GB/s",
                "a 1 GiB device-to-device copy (bytes read + written)"),
       count(&C::gemm_m, "gemm_m", 0, "", "the ceiling GEMM's m"),
       count(&C::gemm_n, "gemm_n", 0, "", "the ceiling GEMM's n"),
       count(&C::gemm_k, "gemm_k", 0, "", "the ceiling GEMM's k"),
       count(&C::copy_bytes, "copy_bytes", 0, "bytes", "the ceiling copy's payload")}};
  return s;
}

const BoundSection<TimeStats>& time_stats() {
  using T = TimeStats;
  static const BoundSection<T> s{
      "time",
      "an entry's time and how its sampling stopped",
      {positive(&T::median, "median", "s", "median sample"),
       positive(&T::min, "min", "s", "fastest sample (<= median)"),
       positive(&T::max, "max", "s", "slowest sample (>= median)"),
       positive(&T::mean, "mean", "s", "mean sample"),
       non_negative(&T::spread, "spread", "", "(p90 - p10) / median"),
       non_negative(&T::rel_stderr, "rel_stderr", "", "stddev / sqrt(n) / median"),
       count(&T::samples, "samples", 0, "samples",
             "timed samples (0: analytical; >= 1 when measured)"),
       one_of(&T::stop,
              {"converged", "sample_cap", "measured_time_cap", "wall_time_cap", "analytical"},
              "stop", "which rule stopped the sampling")}};
  return s;
}

const BoundSection<GemmEntry>& gemm_entry() {
  using G = GemmEntry;
  static const BoundSection<G> s{
      "GEMM entry",
      "one GEMM shape of a layer, timed (or modelled)",
      {words(&G::model, "model", "the model (of models) the shape was taken from"),
       field::integers(&G::tp, "tp", "GPUs", 1, 1'000'000,
                       "TP degrees that run exactly this shape"),
       one_of(&G::name, {"qkv", "attn_out", "mlp_up", "mlp_down", "attention"}, "name",
              "which GEMM"),
       one_of(&G::pass, kPassNames, "pass", "forward or backward pass"),
       count(&G::m, "m", 1, "", "rows of C"), count(&G::n, "n", 1, "", "columns of C"),
       count(&G::k, "k", 1, "", "inner dimension"),
       count(&G::batch, "batch", 1, "", "batched GEMMs"),
       one_of(&G::layout, {"TN", "NN", "NT", "-"}, "layout", "cuBLAS column-major operations"),
       one_of(&G::dtype, {"bf16"}, "dtype", "element type"),
       field::object(&G::time_s, time_stats(), "time_s", "its time"),
       positive(&G::tflops, "tflops", "TFLOP/s", "FLOPs / median time"),
       positive(&G::fraction_of_ceiling, "fraction_of_ceiling", "",
                "tflops / ceilings.gemm_tflops"),
       words(&G::algo, "algo", "the cuBLASLt algorithm chosen"),
       one_of(&G::verification, kVerificationNames, "verification",
              "the fp64 check of its output")}};
  return s;
}

const BoundSection<ReshardEntry>& reshard_entry() {
  using R = ReshardEntry;
  static const BoundSection<R> s{
      "reshard entry",
      "one reshard kernel of a TP n1 -> n2 change, timed (or modelled)",
      {count(&R::n1, "n1", 1, "GPUs", "healthy TP degree"),
       count(&R::n2, "n2", 1, "GPUs", "degraded TP degree"),
       count(&R::cols, "cols", 1, "", "columns of the weight"),
       count(&R::rows, "rows", 1, "", "rows moved"),
       count(&R::bytes, "bytes", 1, "bytes", "payload (each byte read once and written once)"),
       one_of(&R::kernel, {"pack", "unpack", "d2d", "peer", "nccl_all_to_all"}, "kernel",
              "which kernel"),
       one_of(&R::role, {"extra", "core", "any"}, "role", "the rank it runs on"),
       one_of(&R::dtype, {"bf16"}, "dtype", "element type"),
       field::object(&R::time_s, time_stats(), "time_s", "its time"),
       positive(&R::gbps, "gbps", "GB/s", "bandwidth, normalised as the README says"),
       positive(&R::fraction_of_ceiling, "fraction_of_ceiling", "", "gbps / ceilings.copy_gbps"),
       one_of(&R::verification, kVerificationNames, "verification",
              "the bit-exact check of its output")}};
  return s;
}

const BoundSection<MemoryKernelEntry>& memory_kernel_entry() {
  using M = MemoryKernelEntry;
  static const BoundSection<M> s{
      "memory kernel entry",
      "one memory-bound kernel at one size, timed (or modelled); schema_version 2",
      {words(&M::model, "model", "the model (of models) the size was taken from"),
       field::integers(&M::tp, "tp", "GPUs", 1, 1'000'000,
                       "TP degrees that ask for exactly this size (1: the norm without "
                       "sequence parallelism)"),
       one_of(&M::kernel, kMemoryKernelNames, "kernel", "which kernel"),
       count(&M::rows, "rows", 1, "", "rows (tokens; adam: parameters)"),
       count(&M::cols, "cols", 1, "", "elements per row (adam: 1)"),
       count(&M::bytes, "bytes", 1, "bytes",
             "bytes read + written by one call, as the README's table says"),
       one_of(&M::dtype, {kMemoryKernelDtypes[0], kMemoryKernelDtypes[1]}, "dtype",
              "element types (adam: fp32 master, m, v; bf16 gradient and parameter copy)"),
       field::object(&M::time_s, time_stats(), "time_s", "its time"),
       positive(&M::gbps, "gbps", "GB/s", "bytes / median time"),
       positive(&M::fraction_of_ceiling, "fraction_of_ceiling", "", "gbps / ceilings.copy_gbps"),
       one_of(&M::verification, kVerificationNames, "verification",
              "the check of a slice of its output against a CPU reference")}};
  return s;
}

const BoundSection<AttentionEntry>& attention_entry() {
  using A = AttentionEntry;
  static const BoundSection<A> s{
      "attention entry",
      "one fused causal attention call (cuDNN SDPA), timed, or the analytical flash estimate; "
      "schema_version 3",
      {words(&A::model, "model", "the model (of models) the shape was taken from"),
       field::integers(&A::tp, "tp", "GPUs", 1, 1'000'000,
                       "TP degrees that run exactly this shape"),
       one_of(&A::pass, kPassNames, "pass", "fwd, or bwd_data for the backward (dQ, dK, dV)"),
       count(&A::batch, "batch", 1, "sequences", "micro-batch"),
       count(&A::heads, "heads", 1, "", "local query heads"),
       count(&A::kv_heads, "kv_heads", 1, "", "local key/value heads"),
       count(&A::seq_len, "seq_len", 1, "tokens", "sequence length"),
       count(&A::head_dim, "head_dim", 1, "", "head dimension"),
       flag(&A::causal, "causal", "causal mask (always true: training runs it)"),
       one_of(&A::impl, {"cudnn_sdpa", "analytical"}, "impl",
              "cuDNN's fused SDPA (flash) kernel, or the analytical flash estimate"),
       one_of(&A::dtype, {"bf16"}, "dtype", "element type"),
       field::object(&A::time_s, time_stats(), "time_s", "its time"),
       positive(&A::tflops, "tflops", "TFLOP/s",
                "causal FLOPs (forward 2 s^2 d per head, backward 2x) / median time"),
       positive(&A::fraction_of_ceiling, "fraction_of_ceiling", "",
                "tflops / ceilings.gemm_tflops"),
       words(&A::engine, "engine", "what ran it (cuDNN version, engine), or \"analytical\""),
       one_of(&A::verification, kVerificationNames, "verification",
              "the check of sampled outputs against a CPU reference")}};
  return s;
}

const BoundSection<FitStats>& fit_stats() {
  using F = FitStats;
  static const BoundSection<F> s{
      "fit statistics",
      "how well the fit predicts entries it did not see",
      {one_of(&F::method, {"leave_one_out", "none"}, "method", "how the error was measured"),
       count(&F::held_out, "held_out", 0, "entries", "entries predicted"),
       non_negative(&F::max_rel_error, "max_rel_error", "", "largest relative error"),
       non_negative(&F::median_rel_error, "median_rel_error", "", "median relative error")}};
  return s;
}

const BoundSection<FitSummary>& fit() {
  using F = FitSummary;
  static const BoundSection<F> s{
      "fit",
      "the fit's leave-one-out errors",
      {field::object(&F::gemm, fit_stats(), "gemm", "GEMM entries"),
       field::object(&F::reshard, fit_stats(), "reshard", "reshard entries")}};
  return s;
}

}  // namespace

const BoundSection<Profile>& profile() {
  using P = Profile;
  static const BoundSection<P> s{
      "profile",
      "a calibration profile",
      {count(&P::schema_version, "schema_version", 1, "", "the format's version"),
       one_of(&P::source, kSourceNames, "source", "timed on a GPU, or modelled from a datasheet"),
       words(&P::generator, "generator", "e.g. \"goodput-calibrate 0.1.0\""),
       field::object(&P::device, device(), "device", "the GPU"),
       field::object(&P::settings, settings(), "settings", "how it was made"),
       field::objects(&P::models, model(), "models",
                      "the models and TP ranges the shapes were taken from"),
       field::object(&P::ceilings, ceilings(), "ceilings", "the device's peaks"),
       field::objects(&P::gemm, gemm_entry(), "gemm", "GEMM entries"),
       field::objects(&P::reshard, reshard_entry(), "reshard", "reshard entries"),
       field::objects(&P::memory_kernels, memory_kernel_entry(), "memory_kernels",
                      "memory-bound kernel entries (schema_version 2)"),
       field::objects(&P::attention, attention_entry(), "attention",
                      "fused attention entries (schema_version 3)"),
       field::object(&P::fit, fit(), "fit", "the fit's errors")}};
  return s;
}

const std::vector<PlacedSection>& all() {
  static const std::vector<PlacedSection> v = {
      {"/", &profile().section()},
      {"/device", &device().section()},
      {"/device/clocks", &clocks().section()},
      {"/device/clocks/{sm,mem}_observed_mhz", &clock_range().section()},
      {"/settings", &settings().section()},
      {"/settings/measurement", &measurement().section()},
      {"/settings/measurement/stop", &stop().section()},
      {"/settings/analytical_model", &analytical_model().section()},
      {"/settings/analytical_model/flash_attention", &flash_attention().section()},
      {"/models/N", &model().section()},
      {"/models/N/layout", &step_layout().section()},
      {"/ceilings", &ceilings().section()},
      {"/gemm/N", &gemm_entry().section()},
      {"/{gemm,reshard,memory_kernels,attention}/N/time_s", &time_stats().section()},
      {"/reshard/N", &reshard_entry().section()},
      {"/memory_kernels/N", &memory_kernel_entry().section()},
      {"/attention/N", &attention_entry().section()},
      {"/fit", &fit().section()},
      {"/fit/{gemm,reshard}", &fit_stats().section()},
  };
  return v;
}

}  // namespace goodput::calib::profile_sections
