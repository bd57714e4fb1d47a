#include <string>

#include "calibrate/profile/profile_json.hpp"

namespace goodput::calib {
namespace {

using ojson = nlohmann::ordered_json;

template <class T>
ojson nullable(const std::optional<T>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

ojson to_json(const ClockRange& r) {
  return ojson{{"min", r.min}, {"median", r.median}, {"max", r.max}};
}

ojson nullable(const std::optional<ClockRange>& v) {
  return v ? to_json(*v) : ojson(nullptr);
}

ojson to_json(const DeviceInfo& d) {
  const Clocks& c = d.clocks;
  return ojson{
      {"name", d.name},
      {"sm_count", d.sm_count},
      {"memory_bytes", d.memory_bytes},
      {"l2_bytes", nullable(d.l2_bytes)},
      {"compute_capability", d.compute_capability},
      {"device_count", d.device_count},
      {"clocks", ojson{{"sm_max_mhz", nullable(c.sm_max_mhz)},
                       {"mem_max_mhz", nullable(c.mem_max_mhz)},
                       {"sm_observed_mhz", nullable(c.sm_observed_mhz)},
                       {"mem_observed_mhz", nullable(c.mem_observed_mhz)},
                       {"observed_via", c.observed_via}}},
      {"driver_version", nullable(d.driver_version)},
      {"cuda_runtime_version", nullable(d.cuda_runtime_version)},
      {"cublas_version", nullable(d.cublas_version)},
      {"nccl_version", nullable(d.nccl_version)},
  };
}

ojson to_json(const StopSettings& s) {
  return ojson{{"warmup_runs", s.warmup_runs},       {"min_samples", s.min_samples},
               {"max_samples", s.max_samples},       {"rel_stderr_target", s.rel_stderr_target},
               {"max_measured_s", s.max_measured_s}, {"max_wall_s", s.max_wall_s}};
}

ojson to_json(const Settings& s) {
  ojson out{{"gemm_impl", s.gemm_impl},
            {"attention_impl", s.attention_impl},
            {"attention_scope", s.attention_scope},
            {"measurement", nullptr},
            {"analytical_model", nullptr}};
  if (const auto& m = s.measurement) {
    out["measurement"] = ojson{{"quick", m->quick},
                               {"stop", to_json(m->stop)},
                               {"l2_flush_bytes", m->l2_flush_bytes},
                               {"gemm_verify_points", m->gemm_verify_points},
                               {"gemm_verify_rtol", m->gemm_verify_rtol},
                               {"gemm_verify_atol_rel", m->gemm_verify_atol_rel},
                               {"cublaslt_workspace_bytes", m->cublaslt_workspace_bytes},
                               {"nccl", m->nccl},
                               {"scenario", m->scenario}};
  }
  if (const auto& a = s.analytical_model) {
    out["analytical_model"] = ojson{
        {"gpu", a->gpu},       {"datasheet", a->datasheet}, {"e_max", a->e_max},
        {"d_half", a->d_half}, {"launch_s", a->launch_s},   {"hbm_efficiency", a->hbm_efficiency}};
  }
  return out;
}

ojson to_json(const ProfiledModel& m) {
  const ModelShape& s = m.shape;
  return ojson{{"name", s.name},       {"hidden", s.hidden},
               {"heads", s.heads},     {"kv_heads", s.kv_heads},
               {"ffn", s.ffn},         {"gated_mlp", s.gated_mlp},
               {"seq_len", s.seq_len}, {"micro_batch", s.micro_batch},
               {"tp_max", m.tp_max},   {"tp_min", m.tp_min}};
}

ojson to_json(const TimeStats& t) {
  return ojson{{"median", t.median},   {"min", t.min},       {"max", t.max},
               {"mean", t.mean},       {"spread", t.spread}, {"rel_stderr", t.rel_stderr},
               {"samples", t.samples}, {"stop", t.stop}};
}

ojson to_json(const GemmEntry& e) {
  return ojson{{"model", e.model},
               {"tp", e.tp},
               {"name", e.name},
               {"pass", std::string(to_string(e.pass))},
               {"m", e.m},
               {"n", e.n},
               {"k", e.k},
               {"batch", e.batch},
               {"layout", e.layout},
               {"dtype", e.dtype},
               {"time_s", to_json(e.time_s)},
               {"tflops", e.tflops},
               {"fraction_of_ceiling", e.fraction_of_ceiling},
               {"algo", e.algo},
               {"verification", std::string(to_string(e.verification))}};
}

ojson to_json(const ReshardEntry& e) {
  return ojson{{"n1", e.n1},
               {"n2", e.n2},
               {"cols", e.cols},
               {"rows", e.rows},
               {"bytes", e.bytes},
               {"kernel", e.kernel},
               {"role", e.role},
               {"dtype", e.dtype},
               {"time_s", to_json(e.time_s)},
               {"gbps", e.gbps},
               {"fraction_of_ceiling", e.fraction_of_ceiling},
               {"verification", std::string(to_string(e.verification))}};
}

ojson to_json(const FitStats& f) {
  return ojson{{"method", f.method},
               {"held_out", f.held_out},
               {"max_rel_error", f.max_rel_error},
               {"median_rel_error", f.median_rel_error}};
}

}  // namespace

std::string_view to_string(Source source) {
  return enum_name(kSourceNames, source);
}

std::string_view to_string(Verification v) {
  return enum_name(kVerificationNames, v);
}

nlohmann::ordered_json to_json(const Profile& p) {
  ojson gemm = ojson::array();
  for (const auto& e : p.gemm) gemm.push_back(to_json(e));
  ojson reshard = ojson::array();
  for (const auto& e : p.reshard) reshard.push_back(to_json(e));
  ojson models = ojson::array();
  for (const auto& m : p.models) models.push_back(to_json(m));
  const Ceilings& c = p.ceilings;
  return ojson{
      {"schema_version", p.schema_version},
      {"source", std::string(to_string(p.source))},
      {"generator", p.generator},
      {"device", to_json(p.device)},
      {"settings", to_json(p.settings)},
      {"models", models},
      {"ceilings", ojson{{"kind", c.kind},
                         {"gemm_tflops", c.gemm_tflops},
                         {"copy_gbps", c.copy_gbps},
                         {"gemm_m", c.gemm_m},
                         {"gemm_n", c.gemm_n},
                         {"gemm_k", c.gemm_k},
                         {"copy_bytes", c.copy_bytes}}},
      {"gemm", gemm},
      {"reshard", reshard},
      {"fit", ojson{{"gemm", to_json(p.fit.gemm)}, {"reshard", to_json(p.fit.reshard)}}},
  };
}

}  // namespace goodput::calib
