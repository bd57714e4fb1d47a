#include <algorithm>
#include <initializer_list>
#include <string>

#include "calibrate/profile/json_reader.hpp"
#include "calibrate/profile/profile_json.hpp"
#include "sim/core/error.hpp"

namespace goodput::calib {
namespace {

using json = nlohmann::json;

std::string one_of(ObjectReader& r, const std::string& key,
                   std::initializer_list<const char*> valid) {
  std::string v = r.string(key);
  std::string list;
  for (const char* x : valid) {
    if (v == x) return v;
    list += (list.empty() ? "" : ", ") + std::string(x);
  }
  r.fail(key, "unknown value \"" + v + "\" (valid: " + list + ")");
}

std::optional<int> nullable_int(ObjectReader& r, const std::string& key) {
  auto v = r.nullable_integer(key);
  if (!v) return std::nullopt;
  if (*v < 0 || *v > INT32_MAX) r.fail(key, "out of range");
  return static_cast<int>(*v);
}

std::optional<ClockRange> read_clock_range(ObjectReader& parent, const std::string& key) {
  if (parent.is_null(key)) return std::nullopt;
  ObjectReader r(parent.object(key), parent.file(), parent.pointer_of(key));
  ClockRange c{r.non_negative("min"), r.non_negative("median"), r.non_negative("max")};
  r.finish();
  return c;
}

DeviceInfo read_device(ObjectReader& r) {
  DeviceInfo d;
  d.name = r.string("name");
  d.sm_count = r.int32("sm_count", 0);
  d.memory_bytes = r.integer("memory_bytes", 0);
  d.l2_bytes = r.nullable_integer("l2_bytes");
  d.compute_capability = r.string("compute_capability");
  d.device_count = r.int32("device_count", 0);
  ObjectReader c(r.object("clocks"), r.file(), r.pointer_of("clocks"));
  d.clocks.sm_max_mhz = nullable_int(c, "sm_max_mhz");
  d.clocks.mem_max_mhz = nullable_int(c, "mem_max_mhz");
  d.clocks.sm_observed_mhz = read_clock_range(c, "sm_observed_mhz");
  d.clocks.mem_observed_mhz = read_clock_range(c, "mem_observed_mhz");
  d.clocks.observed_via = one_of(c, "observed_via", {"nvml", "none", "datasheet"});
  c.finish();
  d.driver_version = nullable_int(r, "driver_version");
  d.cuda_runtime_version = nullable_int(r, "cuda_runtime_version");
  d.cublas_version = nullable_int(r, "cublas_version");
  d.nccl_version = nullable_int(r, "nccl_version");
  r.finish();
  return d;
}

Settings read_settings(ObjectReader& r, Source source) {
  Settings s;
  s.gemm_impl = one_of(r, "gemm_impl", {"cublasLt", "analytical"});
  s.attention_impl = one_of(r, "attention_impl",
                            {"cublas_causal_blocked", "cublas_strided_batched", "analytical"});
  s.attention_scope = r.string("attention_scope");
  if (!r.is_null("measurement")) {
    ObjectReader m(r.object("measurement"), r.file(), r.pointer_of("measurement"));
    MeasureSettings ms;
    ms.quick = m.boolean("quick");
    ObjectReader st(m.object("stop"), m.file(), m.pointer_of("stop"));
    ms.stop.warmup_runs = st.int32("warmup_runs", 0);
    ms.stop.min_samples = st.int32("min_samples", 1);
    ms.stop.max_samples = st.int32("max_samples", 1);
    ms.stop.rel_stderr_target = st.positive("rel_stderr_target");
    ms.stop.max_measured_s = st.positive("max_measured_s");
    ms.stop.max_wall_s = st.positive("max_wall_s");
    st.finish();
    ms.l2_flush_bytes = m.integer("l2_flush_bytes", 0);
    ms.gemm_verify_points = m.int32("gemm_verify_points", 1);
    ms.gemm_verify_rtol = m.positive("gemm_verify_rtol");
    ms.gemm_verify_atol_rel = m.non_negative("gemm_verify_atol_rel");
    ms.cublaslt_workspace_bytes = m.integer("cublaslt_workspace_bytes", 0);
    ms.nccl = one_of(m, "nccl", {"measured", "single_gpu", "not_built"});
    ms.scenario = m.string("scenario");
    m.finish();
    s.measurement = ms;
  }
  if (!r.is_null("analytical_model")) {
    ObjectReader a(r.object("analytical_model"), r.file(), r.pointer_of("analytical_model"));
    AnalyticalSettings as;
    as.gpu = a.string("gpu");
    as.datasheet = a.string("datasheet");
    as.e_max = a.positive("e_max");
    as.d_half = a.non_negative("d_half");
    as.launch_s = a.non_negative("launch_s");
    as.hbm_efficiency = a.positive("hbm_efficiency");
    a.finish();
    s.analytical_model = as;
  }
  if (source == Source::measured && (!s.measurement || s.analytical_model)) {
    r.fail("measurement",
           "a measured profile needs \"measurement\" and a null \"analytical_model\"");
  }
  if (source == Source::analytical && (s.measurement || !s.analytical_model)) {
    r.fail("analytical_model",
           "an analytical profile needs \"analytical_model\" and a null \"measurement\"");
  }
  r.finish();
  return s;
}

ProfiledModel read_model(ObjectReader& r) {
  ProfiledModel m;
  m.shape.name = r.string("name");
  m.shape.hidden = r.int32("hidden", 1);
  m.shape.heads = r.int32("heads", 1);
  m.shape.kv_heads = r.int32("kv_heads", 1);
  m.shape.ffn = r.int32("ffn", 1);
  m.shape.gated_mlp = r.boolean("gated_mlp");
  m.shape.seq_len = r.int32("seq_len", 1);
  m.shape.micro_batch = r.int32("micro_batch", 1);
  m.tp_max = r.int32("tp_max", 1);
  m.tp_min = r.int32("tp_min", 1);
  if (m.tp_min > m.tp_max) r.fail("tp_min", "must be <= tp_max");
  try {
    validate(m.shape);
  } catch (const std::invalid_argument& e) {
    r.fail("hidden", std::string("inconsistent model: ") + e.what());
  }
  r.finish();
  return m;
}

TimeStats read_time(ObjectReader& parent, Source source) {
  ObjectReader r(parent.object("time_s"), parent.file(), parent.pointer_of("time_s"));
  TimeStats t;
  t.median = r.positive("median");
  t.min = r.positive("min");
  t.max = r.positive("max");
  t.mean = r.positive("mean");
  t.spread = r.non_negative("spread");
  t.rel_stderr = r.non_negative("rel_stderr");
  t.samples = r.int32("samples", source == Source::measured ? 1 : 0);
  t.stop = one_of(r, "stop",
                  {"converged", "sample_cap", "measured_time_cap", "wall_time_cap", "analytical"});
  if (t.min > t.median) r.fail("min", "must be <= median");
  if (t.max < t.median) r.fail("max", "must be >= median");
  r.finish();
  return t;
}

Verification read_verification(ObjectReader& r) {
  const std::string v = one_of(r, "verification", {"passed", "failed", "not_applicable"});
  if (v == "passed") return Verification::passed;
  if (v == "failed") return Verification::failed;
  return Verification::not_applicable;
}

GemmEntry read_gemm(ObjectReader& r, Source source) {
  GemmEntry e;
  e.model = r.string("model");
  const json& tp = r.array("tp");
  for (std::size_t i = 0; i < tp.size(); ++i) {
    if (!tp[i].is_number_integer() || tp[i].get<std::int64_t>() < 1 ||
        tp[i].get<std::int64_t>() > 1'000'000) {
      throw InputError(r.file(), pointer_append(r.pointer_of("tp"), i),
                       "expected a positive integer");
    }
    e.tp.push_back(tp[i].get<int>());
  }
  e.name = one_of(r, "name", {"qkv", "attn_out", "mlp_up", "mlp_down", "attention"});
  try {
    e.pass = parse_pass(r.string("pass"));
  } catch (const std::invalid_argument& ex) {
    r.fail("pass", ex.what());
  }
  e.m = r.integer("m", 1);
  e.n = r.integer("n", 1);
  e.k = r.integer("k", 1);
  e.batch = r.integer("batch", 1);
  e.layout = one_of(r, "layout", {"TN", "NN", "NT", "-"});
  e.dtype = one_of(r, "dtype", {"bf16"});
  e.time_s = read_time(r, source);
  e.tflops = r.positive("tflops");
  e.fraction_of_ceiling = r.positive("fraction_of_ceiling");
  e.algo = r.string("algo");
  e.verification = read_verification(r);
  r.finish();
  return e;
}

ReshardEntry read_reshard(ObjectReader& r, Source source) {
  ReshardEntry e;
  e.n1 = r.int32("n1", 1);
  e.n2 = r.int32("n2", 1);
  e.cols = r.integer("cols", 1);
  e.rows = r.integer("rows", 1);
  e.bytes = r.integer("bytes", 1);
  e.kernel = one_of(r, "kernel", {"pack", "unpack", "d2d", "peer", "nccl_all_to_all"});
  e.role = one_of(r, "role", {"extra", "core", "any"});
  e.dtype = one_of(r, "dtype", {"bf16"});
  e.time_s = read_time(r, source);
  e.gbps = r.positive("gbps");
  e.fraction_of_ceiling = r.positive("fraction_of_ceiling");
  e.verification = read_verification(r);
  r.finish();
  return e;
}

FitStats read_fit_stats(ObjectReader& parent, const std::string& key) {
  ObjectReader r(parent.object(key), parent.file(), parent.pointer_of(key));
  FitStats f;
  f.method = one_of(r, "method", {"leave_one_out", "none"});
  f.held_out = r.int32("held_out", 0);
  f.max_rel_error = r.non_negative("max_rel_error");
  f.median_rel_error = r.non_negative("median_rel_error");
  r.finish();
  return f;
}

template <class Entry, class ReadOne>
std::vector<Entry> read_list(ObjectReader& r, const std::string& key, ReadOne read_one) {
  const json& list = r.array(key);
  std::vector<Entry> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    ObjectReader er(list[i], r.file(), pointer_append(r.pointer_of(key), i));
    out.push_back(read_one(er));
  }
  return out;
}

}  // namespace

Profile from_json(const json& doc, const std::string& file) {
  ObjectReader r(doc, file, "");
  Profile p;
  p.schema_version = r.int32("schema_version");
  if (p.schema_version != kProfileSchemaVersion) {
    r.fail("schema_version", "unsupported schema version " + std::to_string(p.schema_version) +
                                 " (this build reads " + std::to_string(kProfileSchemaVersion) +
                                 ")");
  }
  p.source = one_of(r, "source", {"measured", "analytical"}) == "measured" ? Source::measured
                                                                           : Source::analytical;
  p.generator = r.string("generator");
  {
    ObjectReader d(r.object("device"), file, "/device");
    p.device = read_device(d);
  }
  {
    ObjectReader s(r.object("settings"), file, "/settings");
    p.settings = read_settings(s, p.source);
  }
  p.models = read_list<ProfiledModel>(r, "models", [](ObjectReader& m) { return read_model(m); });
  {
    ObjectReader c(r.object("ceilings"), file, "/ceilings");
    p.ceilings.kind = one_of(c, "kind", {"measured", "datasheet"});
    p.ceilings.gemm_tflops = c.positive("gemm_tflops");
    p.ceilings.copy_gbps = c.positive("copy_gbps");
    p.ceilings.gemm_m = c.integer("gemm_m", 0);
    p.ceilings.gemm_n = c.integer("gemm_n", 0);
    p.ceilings.gemm_k = c.integer("gemm_k", 0);
    p.ceilings.copy_bytes = c.integer("copy_bytes", 0);
    c.finish();
  }
  const Source src = p.source;
  p.gemm = read_list<GemmEntry>(r, "gemm", [src](ObjectReader& e) { return read_gemm(e, src); });
  p.reshard = read_list<ReshardEntry>(r, "reshard",
                                      [src](ObjectReader& e) { return read_reshard(e, src); });
  {
    ObjectReader f(r.object("fit"), file, "/fit");
    p.fit.gemm = read_fit_stats(f, "gemm");
    p.fit.reshard = read_fit_stats(f, "reshard");
    f.finish();
  }
  r.finish();
  return p;
}

}  // namespace goodput::calib
