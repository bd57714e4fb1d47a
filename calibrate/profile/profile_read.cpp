#include <string>

#include "calibrate/profile/profile_json.hpp"
#include "calibrate/profile/profile_schema.hpp"
#include "sim/core/error.hpp"
#include "sim/core/params.hpp"

// Reading a profile: the sections of profile_schema.cpp validate every key (type, range,
// choices, unknown and missing keys, with the JSON pointer); this file only moves the validated
// values into the structs and checks what spans several keys.
namespace goodput::calib {
namespace {

namespace S = profile_sections;

std::optional<int> nullable_int(const ParamReader& r, const std::string& key) {
  if (r.is_null(key)) return std::nullopt;
  return r.integer32(key);
}

std::optional<std::int64_t> nullable_int64(const ParamReader& r, const std::string& key) {
  if (r.is_null(key)) return std::nullopt;
  return r.integer(key);
}

std::optional<ClockRange> read_clock_range(const ParamReader& parent, const std::string& key) {
  if (parent.is_null(key)) return std::nullopt;
  const ParamReader r = parent.object(key);
  return ClockRange{r.number("min"), r.number("median"), r.number("max")};
}

DeviceInfo read_device(const ParamReader& r) {
  DeviceInfo d;
  d.name = r.string("name");
  d.sm_count = r.integer32("sm_count");
  d.memory_bytes = r.integer("memory_bytes");
  d.l2_bytes = nullable_int64(r, "l2_bytes");
  d.compute_capability = r.string("compute_capability");
  d.device_count = r.integer32("device_count");
  const ParamReader c = r.object("clocks");
  d.clocks.sm_max_mhz = nullable_int(c, "sm_max_mhz");
  d.clocks.mem_max_mhz = nullable_int(c, "mem_max_mhz");
  d.clocks.sm_observed_mhz = read_clock_range(c, "sm_observed_mhz");
  d.clocks.mem_observed_mhz = read_clock_range(c, "mem_observed_mhz");
  d.clocks.observed_via = c.string("observed_via");
  d.driver_version = nullable_int(r, "driver_version");
  d.cuda_runtime_version = nullable_int(r, "cuda_runtime_version");
  d.cublas_version = nullable_int(r, "cublas_version");
  d.nccl_version = nullable_int(r, "nccl_version");
  return d;
}

MeasureSettings read_measurement(const ParamReader& m) {
  MeasureSettings ms;
  ms.quick = m.boolean("quick");
  const ParamReader st = m.object("stop");
  ms.stop.warmup_runs = st.integer32("warmup_runs");
  ms.stop.min_samples = st.integer32("min_samples");
  ms.stop.max_samples = st.integer32("max_samples");
  ms.stop.rel_stderr_target = st.number("rel_stderr_target");
  ms.stop.max_measured_s = st.number("max_measured_s");
  ms.stop.max_wall_s = st.number("max_wall_s");
  ms.l2_flush_bytes = m.integer("l2_flush_bytes");
  ms.gemm_verify_points = m.integer32("gemm_verify_points");
  ms.gemm_verify_rtol = m.number("gemm_verify_rtol");
  ms.gemm_verify_atol_rel = m.number("gemm_verify_atol_rel");
  ms.cublaslt_workspace_bytes = m.integer("cublaslt_workspace_bytes");
  ms.nccl = m.string("nccl");
  ms.scenario = m.string("scenario");
  return ms;
}

AnalyticalSettings read_analytical(const ParamReader& a) {
  AnalyticalSettings as;
  as.gpu = a.string("gpu");
  as.datasheet = a.string("datasheet");
  as.e_max = a.number("e_max");
  as.d_half = a.number("d_half");
  as.launch_s = a.number("launch_s");
  as.hbm_efficiency = a.number("hbm_efficiency");
  return as;
}

Settings read_settings(const ParamReader& r, Source source) {
  Settings s;
  s.gemm_impl = r.string("gemm_impl");
  s.attention_impl = r.string("attention_impl");
  s.attention_scope = r.string("attention_scope");
  if (!r.is_null("measurement")) s.measurement = read_measurement(r.object("measurement"));
  if (!r.is_null("analytical_model"))
    s.analytical_model = read_analytical(r.object("analytical_model"));
  if (source == Source::measured && (!s.measurement || s.analytical_model))
    throw r.error("measurement",
                  "a measured profile needs \"measurement\" and a null \"analytical_model\"");
  if (source == Source::analytical && (s.measurement || !s.analytical_model))
    throw r.error("analytical_model",
                  "an analytical profile needs \"analytical_model\" and a null \"measurement\"");
  return s;
}

ProfiledModel read_model(const ParamReader& r) {
  ProfiledModel m;
  m.shape.name = r.string("name");
  m.shape.hidden = r.integer32("hidden");
  m.shape.heads = r.integer32("heads");
  m.shape.kv_heads = r.integer32("kv_heads");
  m.shape.ffn = r.integer32("ffn");
  m.shape.gated_mlp = r.boolean("gated_mlp");
  m.shape.seq_len = r.integer32("seq_len");
  m.shape.micro_batch = r.integer32("micro_batch");
  m.tp_max = r.integer32("tp_max");
  m.tp_min = r.integer32("tp_min");
  if (m.tp_min > m.tp_max) throw r.error("tp_min", "must be <= tp_max");
  try {
    validate(m.shape);
  } catch (const std::invalid_argument& e) {
    throw r.error("hidden", std::string("inconsistent model: ") + e.what());
  }
  return m;
}

TimeStats read_time(const ParamReader& parent, Source source) {
  const ParamReader r = parent.object("time_s");
  TimeStats t;
  t.median = r.number("median");
  t.min = r.number("min");
  t.max = r.number("max");
  t.mean = r.number("mean");
  t.spread = r.number("spread");
  t.rel_stderr = r.number("rel_stderr");
  t.samples = r.integer32("samples");
  t.stop = r.string("stop");
  if (source == Source::measured && t.samples < 1)
    throw r.error("samples", "a measured entry has at least one sample");
  if (t.min > t.median) throw r.error("min", "must be <= median");
  if (t.max < t.median) throw r.error("max", "must be >= median");
  return t;
}

Verification read_verification(const ParamReader& r) {
  return enum_value(kVerificationNames, r.string("verification"));
}

GemmEntry read_gemm(const ParamReader& r, Source source) {
  GemmEntry e;
  e.model = r.string("model");
  for (const std::int64_t d : r.integers("tp")) e.tp.push_back(static_cast<int>(d));
  e.name = r.string("name");
  e.pass = parse_pass(r.string("pass"));
  e.m = r.integer("m");
  e.n = r.integer("n");
  e.k = r.integer("k");
  e.batch = r.integer("batch");
  e.layout = r.string("layout");
  e.dtype = r.string("dtype");
  e.time_s = read_time(r, source);
  e.tflops = r.number("tflops");
  e.fraction_of_ceiling = r.number("fraction_of_ceiling");
  e.algo = r.string("algo");
  e.verification = read_verification(r);
  return e;
}

ReshardEntry read_reshard(const ParamReader& r, Source source) {
  ReshardEntry e;
  e.n1 = r.integer32("n1");
  e.n2 = r.integer32("n2");
  e.cols = r.integer("cols");
  e.rows = r.integer("rows");
  e.bytes = r.integer("bytes");
  e.kernel = r.string("kernel");
  e.role = r.string("role");
  e.dtype = r.string("dtype");
  e.time_s = read_time(r, source);
  e.gbps = r.number("gbps");
  e.fraction_of_ceiling = r.number("fraction_of_ceiling");
  e.verification = read_verification(r);
  return e;
}

FitStats read_fit_stats(const ParamReader& r) {
  FitStats f;
  f.method = r.string("method");
  f.held_out = r.integer32("held_out");
  f.max_rel_error = r.number("max_rel_error");
  f.median_rel_error = r.number("median_rel_error");
  return f;
}

}  // namespace

Profile from_json(const nlohmann::json& doc, const std::string& file) {
  const Json in(doc);
  const ParamReader r(in, S::profile(), file, "", nullptr);
  Profile p;
  p.schema_version = r.integer32("schema_version");
  if (p.schema_version != kProfileSchemaVersion)
    throw r.error("schema_version", "unsupported schema version " +
                                        std::to_string(p.schema_version) + " (this build reads " +
                                        std::to_string(kProfileSchemaVersion) + ")");
  p.source = enum_value(kSourceNames, r.string("source"));
  p.generator = r.string("generator");
  p.device = read_device(r.object("device"));
  p.settings = read_settings(r.object("settings"), p.source);
  for (const ParamReader& m : r.objects("models")) p.models.push_back(read_model(m));
  const ParamReader c = r.object("ceilings");
  p.ceilings.kind = c.string("kind");
  p.ceilings.gemm_tflops = c.number("gemm_tflops");
  p.ceilings.copy_gbps = c.number("copy_gbps");
  p.ceilings.gemm_m = c.integer("gemm_m");
  p.ceilings.gemm_n = c.integer("gemm_n");
  p.ceilings.gemm_k = c.integer("gemm_k");
  p.ceilings.copy_bytes = c.integer("copy_bytes");
  for (const ParamReader& e : r.objects("gemm")) p.gemm.push_back(read_gemm(e, p.source));
  for (const ParamReader& e : r.objects("reshard")) p.reshard.push_back(read_reshard(e, p.source));
  const ParamReader f = r.object("fit");
  p.fit.gemm = read_fit_stats(f.object("gemm"));
  p.fit.reshard = read_fit_stats(f.object("reshard"));
  return p;
}

}  // namespace goodput::calib
