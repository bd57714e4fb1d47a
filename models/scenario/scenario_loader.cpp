#include "models/scenario/scenario_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "calibrate/profile/gpu_catalogue.hpp"
#include "models/failures/failure_presets.hpp"
#include "models/scenario/model_presets.hpp"
#include "models/scenario/scenario_enums.hpp"
#include "models/scenario/scenario_params.hpp"
#include "models/scenario/stage_layers.hpp"
#include "models/strategies/strategy.hpp"
#include "models/topology/cluster_presets.hpp"
#include "models/trace/clock.hpp"
#include "models/trace/hosts.hpp"
#include "models/trace/trace.hpp"
#include "sim/core/currency.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/json_text.hpp"
#include "sim/core/suggest.hpp"
#include "sim/engine/time.hpp"

namespace goodput {

namespace {

// A file named by `key`, relative to the scenario file's folder; it must exist and be a
// regular file (after following symlinks).
std::string existing_file(const ParamReader& r, const std::string& key, const std::string& what) {
  std::string path = r.string(key);
  const auto base = std::filesystem::path(r.file()).parent_path();
  if (!base.empty() && std::filesystem::path(path).is_relative())
    path = (base / path).lexically_normal().string();
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_type type = fs::status(path, ec).type();  // symlinks followed
  if (type == fs::file_type::not_found || (ec && type == fs::file_type::none))
    throw r.error(key, what + " not found: " + path);
  // Only regular files: /dev/zero would be read forever, a FIFO would wait for a writer.
  if (type != fs::file_type::regular)
    throw r.error(key, "expected the " + what + " to be a regular file, found " +
                           (type == fs::file_type::directory   ? "a folder"
                            : type == fs::file_type::character ? "a character device"
                            : type == fs::file_type::block     ? "a block device"
                            : type == fs::file_type::fifo      ? "a FIFO (named pipe)"
                            : type == fs::file_type::socket    ? "a socket"
                                                               : "something else") +
                           ": " + path);
  return path;
}

// The operator-log keys (hosts, host_pattern, ...): set (away from their defaults, so a resolved
// scenario, which lists every key, reloads) only for a format that names hosts, which needs hosts
// or host_pattern; each well formed.
void check_log_keys(const ParamReader& t, TraceSpec& spec) {
  const trace::TraceFormat& format =
      trace::parse_format(spec.format, t.file(), t.pointer("format"));
  const std::string hosts = t.present("hosts") ? t.string("hosts") : "";
  const std::pair<const char*, bool> set[] = {{"hosts", !hosts.empty()},
                                              {"host_pattern", !spec.host_pattern.empty()},
                                              {"host_index_offset", spec.host_index_offset != 0},
                                              {"time_zone", !spec.time_zone.empty()},
                                              {"start", !spec.start.empty()}};
  for (const auto& [key, given] : set) {
    if (given && !format.takes_hosts) {
      std::string takers;
      for (const trace::TraceFormat& f : trace::trace_formats())
        if (f.takes_hosts) takers += (takers.empty() ? "" : ", ") + std::string(f.name);
      throw t.error(key, "applies only to the formats that name hosts (" + takers +
                             "); format is " + spec.format);
    }
  }
  if (!format.takes_hosts) return;
  if (hosts.empty() && spec.host_pattern.empty())
    throw t.error("format", "format " + spec.format +
                                " names hosts: give /failures/trace/hosts (a host,component "
                                "file) or /failures/trace/host_pattern");
  if (!hosts.empty()) spec.hosts = existing_file(t, "hosts", "host map file");
  if (const auto problem = trace::host_pattern_problem(spec.host_pattern);
      !spec.host_pattern.empty() && problem)
    throw t.error("host_pattern", *problem);
  const auto zone = trace::parse_utc_offset(spec.time_zone);
  if (!spec.time_zone.empty() && !zone)
    throw t.error("time_zone", "expected Z or an offset such as +02:00 or -05:00");
  if (!spec.start.empty() && !trace::parse_iso_time(spec.start, zone.value_or(0)))
    throw t.error("start", "expected an ISO 8601 time such as 2026-03-01T00:00:00Z");
}

RepairSpec parse_repair(const ParamReader& r) {
  RepairSpec out;
  out.kind = enum_value(kRepairKindNames, r.string("kind"));
  switch (out.kind) {
    case RepairSpec::Kind::Restart:
      out.modes = {{1, 0, 0}};
      break;
    case RepairSpec::Kind::Fixed:
      if (!r.present("hours")) throw r.error("", "repair kind 'fixed' needs 'hours'");
      out.modes = {{1, r.number("hours"), 0}};
      break;
    case RepairSpec::Kind::Lognormal:
      if (!r.present("median_hours"))
        throw r.error("", "repair kind 'lognormal' needs 'median_hours'");
      out.modes = {{1, r.number("median_hours"), r.number("sigma")}};
      break;
    case RepairSpec::Kind::Mixture:
      for (const auto& m : r.objects("modes"))
        sections::repair_mode_fields().fill(m, out.modes.emplace_back());
      if (out.modes.empty())
        throw r.error("modes", "repair kind 'mixture' needs at least one mode");
      break;
  }
  return out;
}

// The GPU's figures (Scenario::gpu): /cluster/gpu_spec when given (then /cluster/gpu, if given,
// must be its name), else the catalogue's entry for /cluster/gpu (the preset's by default).
void resolve_gpu(const ParamReader& r, Scenario& s) {
  std::string& type = s.cluster.gpu_type;
  if (r.present("gpu_spec")) {
    const ParamReader g = r.object("gpu_spec");
    s.gpu = sections::gpu_spec_fields().read(g);
    if (calib::find_gpu(s.gpu.name))
      throw g.error("name", "'" + s.gpu.name +
                                "' is a GPU of the catalogue (goodput describe hardware): name "
                                "your own GPU otherwise, or drop gpu_spec to use the entry");
    if (r.present("gpu") && type != s.gpu.name)
      throw r.error("gpu", "'" + type + "' is not gpu_spec's name '" + s.gpu.name +
                               "': with gpu_spec, gpu names it (or is left out)");
    if (s.gpu.max_power_w > 0 && s.gpu.max_power_w < s.gpu.nominal_power_w)
      throw g.error("max_power_w",
                    "below nominal_power_w: a GPU cannot work at more than its "
                    "rated maximum board power");
    type = s.gpu.name;
    for (std::string* src : {&s.gpu.peaks_source, &s.gpu.spec_source, &s.gpu.nvlink_source,
                             &s.gpu.power_source, &s.gpu.attention_source})
      if (src->empty()) *src = "the scenario's /cluster/gpu_spec";
    return;
  }
  if (type.empty()) return;  // a custom preset without one: the caller says it needs 'gpu'
  if (const calib::GpuSpec* g = calib::find_gpu(type)) {
    s.gpu = *g;
    return;
  }
  // "A100" means "A100-80GB" more likely than "H100", one letter away.
  std::string hint = did_you_mean(type, calib::gpu_names());
  for (const std::string& name : calib::gpu_names())
    if (name.size() > type.size() && name.compare(0, type.size(), type) == 0) {
      hint = " (did you mean '" + name + "'?)";
      break;
    }
  throw r.error("gpu", "unknown GPU '" + type + "'" + hint + ": the GPU catalogue has " +
                           calib::gpu_names_text() +
                           " (their figures: goodput describe hardware); describe another GPU "
                           "in /cluster/gpu_spec");
}

void parse_cluster(const ParamReader& r, Scenario& s) {
  ClusterShape& c = s.cluster;
  c.preset = r.string("preset");
  if (const ClusterPreset* p = find_cluster_preset(c.preset))
    c = {c.preset,          p->gpu, p->gpus_per_node, p->nodes_per_domain, p->nodes_per_rack,
         p->nodes_per_leaf, 1};
  else
    c = {c.preset, "", 0, 0, 0, 0, 1};
  const auto& fields = sections::cluster_fields();
  fields.fill(r, s);  // given counts override the preset's
  resolve_gpu(r, s);
  // A custom shape gives every count the presets would (the optional rows).
  const Json values = fields.values(s);
  for (const auto& row : fields.rows())
    if (row.decl.optional && row.store && row.decl.unit != "W" &&
        (values[row.decl.key] == 0 || values[row.decl.key] == ""))
      throw r.error("", "preset '" + c.preset + "' needs '" + row.decl.key + "'");
  // Power ratings: the GPU's unless given (0 when it declares none).
  if (!r.present("gpu_nominal_power_w")) s.gpu_nominal_power_w = s.gpu.nominal_power_w;
  if (!r.present("gpu_max_power_w")) s.gpu_max_power_w = s.gpu.max_power_w;
  if (s.gpu_nominal_power_w > 0 && s.gpu_max_power_w > 0 &&
      s.gpu_max_power_w < s.gpu_nominal_power_w)
    throw r.error("gpu_max_power_w",
                  "below gpu_nominal_power_w: a GPU cannot work at more than "
                  "its rated maximum board power");
}

void parse_job(const ParamReader& r, Scenario& s) {
  sections::job_fields().fill(r, s.job);
  if (r.present("model")) {
    Json resolved_model, given = r.raw("model");
    // A preset fills the shape; keys given next to it override the preset's.
    if (given.is_object() && given.contains("preset") && given["preset"].is_string()) {
      const Json preset = model_preset(given["preset"].get<std::string>());
      if (preset.is_object())
        for (const auto& [key, value] : preset.items())
          if (!given.contains(key)) given[key] = value;
    }
    ParamReader m(given, sections::model(), r.file(), r.pointer("model"), &resolved_model);
    s.job.model = resolved_model;
  }
  if (s.job.cp > 1 && !s.job.model.is_null()) {
    const int seq = s.job.model["seq_len"].get<int>();
    if (seq % (2 * s.job.cp) != 0)
      throw r.error("cp", "cp " + std::to_string(s.job.cp) + " needs /job/model/seq_len (" +
                              std::to_string(seq) +
                              ") to be a multiple of 2 x cp: each CP rank "
                              "holds two chunks of the sequence, so causal attention is balanced");
  }
  if (s.job.tp > s.cluster.gpus_per_domain())
    throw r.error("tp", "tp " + std::to_string(s.job.tp) + " does not fit in a domain of " +
                            std::to_string(s.cluster.gpus_per_domain()) + " GPUs");
}

void parse_failures(const ParamReader& r, Scenario& s) {
  FailureSpec& f = s.failures;
  sections::failures_fields().fill(r, s);
  if (f.repair_failure_probability >= 1)
    throw r.error("repair_failure_probability", "must be below 1 (at 1 no repair ever succeeds)");
  if (r.present("classes")) {
    for (const auto& c : r.objects("classes")) {
      FailureClassSpec& fc = f.classes.emplace_back();
      sections::failure_class_fields().fill(c, fc);
      fc.repair = parse_repair(c.object("repair"));
      if (fc.kind == FailureClassSpec::Kind::Slow) {
        if (fc.repair.kind == RepairSpec::Kind::Restart)
          throw c.error("repair",
                        "a slow class needs a duration (kind fixed, lognormal or "
                        "mixture), not restart");
        if (fc.slowdown_max > 0 && fc.slowdown_max < fc.slowdown)
          throw c.error("slowdown_max", "must be 0 or at least slowdown");
      }
    }
  } else {
    f.classes = failure_preset(f.preset);
  }
  if (f.model == FailureSpec::Model::Trace) {
    if (!r.present("trace")) throw r.error("trace", "failure model 'trace' needs a 'trace' object");
    const ParamReader t = r.object("trace");
    sections::trace_fields().fill(t, f.trace);
    f.trace.path = existing_file(t, "path", "trace file");
    check_log_keys(t, f.trace);
  } else if (r.present("trace")) {
    r.object("trace");  // still validated
  }
}

// /report's GPU prices (filled from report_fields): a GPU-hour price, or capex written off over
// a lifetime; spare domains at their own price when given.
void parse_prices(const ParamReader& report, Scenario& s) {
  if (s.gpu_capex > 0) {
    if (s.gpu_hour_price > 0)
      throw report.error("gpu_capex", "set gpu_hour_price or gpu_capex, not both");
    s.gpu_hour_price = s.gpu_capex / (s.gpu_lifetime_years * kHoursPerYear);
  }
  s.spare_gpu_hour_price = s.gpu_hour_price;
  if (report.present("spare_gpu_hour_price")) {
    if (!(s.gpu_hour_price > 0))
      throw report.error("spare_gpu_hour_price",
                         "a spare price needs the other GPUs priced: set gpu_hour_price or "
                         "gpu_capex too");
    s.spare_gpu_hour_price = report.number("spare_gpu_hour_price");
  }
}

// /report/baseline must name a compared strategy; by default checkpoint_restart when compared.
void parse_baseline(const ParamReader& r, Scenario& s) {
  std::vector<std::string> names;
  for (const auto& c : s.strategies) names.push_back(c.name);
  const auto compared = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  if (!r.present("baseline")) {
    s.baseline = compared("checkpoint_restart") ? "checkpoint_restart" : "";
    return;
  }
  s.baseline = r.string("baseline");
  if (!compared(s.baseline)) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw r.error("baseline", "'" + s.baseline + "' is not among the compared strategies (" + list +
                                  ")" + did_you_mean(s.baseline, names));
  }
}

void parse_strategies(const ParamReader& top, Scenario& s, Json& resolved) {
  const Json& in = top.raw("strategies");
  const std::string base = top.pointer("strategies");
  if (!in.is_object())
    throw InputError(top.file(), base, "expected an object: strategy name -> parameters");
  Json& out = resolved["strategies"];
  out = Json::object();
  // Report order follows the table, not the file, so reports of different files line up.
  for (const auto& [name, params] : in.items()) {
    if (!find_strategy(name))
      throw InputError(top.file(), base + "/" + name,
                       "unknown strategy '" + name + "'" +
                           did_you_mean(name, strategy_name_list()) +
                           " (valid: " + strategy_names() + ")");
  }
  for (const auto& info : strategy_table()) {
    if (!in.contains(info.name)) continue;
    Json params = Json::object();
    ParamReader pr(in.at(info.name), *info.params, top.file(), base + "/" + info.name, &params);
    out[info.name] = params;
    s.strategies.push_back({info.name, params});
  }
  if (s.strategies.empty())
    throw InputError(top.file(), base,
                     "no strategies to compare (valid: " + strategy_names() + ")");
}

Json class_to_json(const FailureClassSpec& c) {
  Json repair;
  switch (c.repair.kind) {
    case RepairSpec::Kind::Restart:
      repair = {{"kind", "restart"}};
      break;
    case RepairSpec::Kind::Fixed:
      repair = {{"kind", "fixed"}, {"hours", c.repair.modes[0].median_hours}};
      break;
    case RepairSpec::Kind::Lognormal:
      repair = {{"kind", "lognormal"},
                {"median_hours", c.repair.modes[0].median_hours},
                {"sigma", c.repair.modes[0].sigma}};
      break;
    case RepairSpec::Kind::Mixture: {
      Json modes = Json::array();
      for (const auto& m : c.repair.modes)
        modes.push_back(
            {{"weight", m.weight}, {"median_hours", m.median_hours}, {"sigma", m.sigma}});
      repair = {{"kind", "mixture"}, {"modes", modes}};
    }
  }
  Json out = {{"name", c.name},
              {"scope", component_kind_name(c.scope)},
              {"mtbf_hours", c.mtbf_hours},
              {"repair", repair}};
  if (c.kind == FailureClassSpec::Kind::Slow) {
    out["kind"] = "slow";
    out["slowdown"] = c.slowdown;
    out["slowdown_max"] = c.slowdown_max;
    out["detection_s"] = c.detection_s;
  }
  return out;
}

}  // namespace

Json read_json_file(const std::string& path) {
  // The file's name goes into the report (scenario_file, command): it must be text too.
  if (invalid_utf8_at(path))
    throw InputError(json_show(Json(path)), "", "expected a scenario file name in UTF-8");
  return parse_json_text(read_input_file(path, "the scenario file"), path);
}

namespace {
// What the overrides changed: one entry per JSON Patch operation between the file and the input.
std::vector<Scenario::Change> changes_from(const Json& file, const Json& input) {
  std::vector<Scenario::Change> out;
  if (file.is_null()) return out;
  for (const Json& op : Json::diff(file, input)) {
    const std::string path = op.value("path", std::string());
    Scenario::Change c;
    c.pointer = path;
    const Json::json_pointer at(path);
    if (file.contains(at)) c.before = file.at(at);
    if (op.value("op", std::string()) != "remove" && input.contains(at)) c.after = input.at(at);
    out.push_back(std::move(c));
  }
  return out;
}
}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                       const std::vector<std::string>& flags) {
  auto flag = [&](std::size_t i) { return i < flags.size() ? flags[i] : std::string("--set"); };
  Json input = read_json_file(path);
  if (!input.is_object()) throw InputError(path, "/", "a scenario must be a JSON object");
  const Json file = overrides.empty() ? Json() : input;
  for (std::size_t i = 0; i < overrides.size(); ++i) try {
      apply_override(input, overrides[i], path, &sections::scenario());
    } catch (const InputError& e) {
      if (e.file() != "--set" || flag(i) == "--set") throw;
      throw InputError(flag(i), e.locator(), e.message());
    }
  try {
    Scenario s = parse_scenario(input, path);
    s.changes = changes_from(file, input);
    return s;
  } catch (const InputError& e) {
    // A value an override put there: blame the override, not the file (the last one wins).
    if (e.file() != path) throw;
    for (std::size_t i = overrides.size(); i-- > 0;) {
      const std::string& o = overrides[i];
      const std::string pointer = o.substr(0, o.find('='));
      if (e.locator() == pointer || e.locator().rfind(pointer + "/", 0) == 0)
        throw InputError(flag(i), e.locator(),
                         e.message() + " (the override " + o + ", applied to " + path + ")");
    }
    throw;
  }
}

namespace {
// Keys a scenario may still hold from an earlier version: an error naming the replacement.
void refuse_retired_keys(const Json& input, const std::string& file) {
  if (input.is_object() && input.contains("cost") && input["cost"].is_object() &&
      input["cost"].contains("partial_microbatch")) {
    const Json& v = input["cost"]["partial_microbatch"];
    const std::string instead =
        v.is_boolean() ? (v.get<bool>() ? "\"fractional\"" : "\"whole_microbatches\"")
                       : "\"fractional\" (was true) or \"whole_microbatches\" (was false)";
    throw InputError(file, "/cost/partial_microbatch",
                     "'partial_microbatch' was replaced by /cost/local_batch: write "
                     "\"local_batch\": " +
                         instead +
                         " for the same model; the default is now \"whole_samples\" (a "
                         "degraded replica cuts whole sequences, as frameworks do)");
  }
}
}  // namespace

Scenario parse_scenario(const Json& input, const std::string& file) {
  refuse_retired_keys(input, file);
  Scenario s;
  s.file = file;
  s.input = input;
  Json resolved = Json::object();
  // "$schema" names the JSON Schema an editor checks the file with (`goodput describe schema
  // --json`); it changes nothing, so it is neither read nor resolved.
  Json without_schema;
  if (input.is_object() && input.contains("$schema")) {
    if (!input["$schema"].is_string())
      throw InputError(file, "/$schema",
                       "expected a string (the JSON Schema's path or URL, for editors)");
    without_schema = input;
    without_schema.erase("$schema");
  }
  const ParamReader top(without_schema.is_null() ? input : without_schema, sections::scenario(),
                        file, "", &resolved);
  sections::scenario_fields().fill(top, s);
  if (s.name.empty()) s.name = std::filesystem::path(file).stem().string();

  parse_cluster(top.object("cluster"), s);
  parse_job(top.object("job"), s);
  (void)stage_layers(s);  // whole layers per stage, or the error naming the key
  if (!s.job.model.is_null()) resolved["job"]["model"] = s.job.model;  // objects are not copied
  parse_failures(top.object("failures"), s);
  sections::recovery_fields().fill(top.object("recovery"), s.recovery);
  sections::checkpoint_fields().fill(top.object("checkpoint"), s.checkpoint);
  const ParamReader cost = top.object("cost");
  sections::cost_fields().fill(cost, s.cost);
  if (cost.present("profile")) s.cost.profile = existing_file(cost, "profile", "profile");
  if (s.cost.curve_power.size() != s.cost.curve_speed.size() || s.cost.curve_power.size() < 2)
    throw cost.error("curve_speed",
                     "curve_power and curve_speed need the same number (>= 2) of points");
  for (std::size_t i = 1; i < s.cost.curve_power.size(); ++i)
    if (!(s.cost.curve_power[i] > s.cost.curve_power[i - 1]) ||
        !(s.cost.curve_speed[i] > s.cost.curve_speed[i - 1]))
      throw cost.error("curve_power", "the power curve must increase in power and in speed");
  if (s.cost.model == CostSpec::Model::Iteration && s.job.model.is_null())
    throw cost.error("model", "the iteration cost model needs /job/model");
  const ParamReader report = top.object("report");
  sections::report_fields().fill(report, s);
  if (const std::string why = currency_problem(s.currency); !why.empty())
    throw report.error("currency", why);
  {
    const int targets = (s.train_hours > 0) + (s.train_steps > 0) + (s.train_tokens > 0);
    if (targets > 1)
      throw report.error(s.train_tokens > 0 ? "train_tokens" : "train_steps",
                         "set one of train_hours, train_steps, train_tokens");
    if (s.train_tokens > 0) {
      if (s.job.model.is_null())
        throw report.error("train_tokens",
                           "needs /job/model: its seq_len gives the tokens of one step");
      s.train_steps = s.train_tokens / static_cast<double>(s.tokens_per_step());
    }
  }
  parse_prices(report, s);
  parse_strategies(top, s, resolved);
  parse_baseline(report, s);

  // Domain count: what the job needs plus spares, unless given.
  const int per_domain = s.groups_per_domain();
  const long long needed = (static_cast<long long>(s.job_groups()) + per_domain - 1) / per_domain;
  const Json cluster_input = input.contains("cluster") ? input.at("cluster") : Json::object();
  const ParamReader cl(cluster_input, sections::cluster(), file, "/cluster", nullptr);
  if (cl.present("domains")) {
    s.cluster.domains = cl.integer32("domains");
    if (cl.present("spare_domains"))
      throw cl.error("spare_domains", "give either 'domains' or 'spare_domains', not both");
    if (s.cluster.domains < needed)
      throw cl.error("domains", std::to_string(s.cluster.domains) +
                                    " domains cannot hold the job: " + s.job.layout_text() +
                                    " needs " + std::to_string(needed));
    s.spare_domains = static_cast<int>(s.cluster.domains - needed);
  } else {
    if (needed + s.spare_domains > 10'000'000)
      throw cl.error("spare_domains", "the job needs " + std::to_string(needed) +
                                          " domains; with " + std::to_string(s.spare_domains) +
                                          " spares that exceeds 1e7 domains");
    s.cluster.domains = static_cast<int>(needed + s.spare_domains);
  }
  if (static_cast<double>(s.cluster.domains) * s.cluster.gpus_per_domain() > 4.0e9)
    throw cl.error("", "cluster too large (more than 4e9 GPUs)");

  // Write the resolved cluster shape (preset values made explicit).
  Json& rc = resolved["cluster"];
  rc["gpu"] = s.cluster.gpu_type;
  rc["gpus_per_node"] = s.cluster.gpus_per_node;
  rc["nodes_per_domain"] = s.cluster.nodes_per_domain;
  rc["nodes_per_rack"] = s.cluster.nodes_per_rack;
  rc["nodes_per_leaf"] = s.cluster.nodes_per_leaf;
  rc["racks_per_row"] = s.cluster.racks_per_row;
  rc["domains"] = s.cluster.domains;
  if (s.gpu_nominal_power_w > 0) rc["gpu_nominal_power_w"] = s.gpu_nominal_power_w;
  if (s.gpu_max_power_w > 0) rc["gpu_max_power_w"] = s.gpu_max_power_w;
  rc.erase("spare_domains");      // implied by domains; both together would not load
  Json ordered = Json::object();  // declaration order, so resolved files read the same every time
  for (const auto& d : sections::cluster().params)
    if (rc.contains(d.key)) ordered[d.key] = rc[d.key];
  rc = ordered;
  // The classes in use, written out in full so the resolved scenario loads on its own.
  Json classes = Json::array();
  for (const auto& c : s.failures.classes) classes.push_back(class_to_json(c));
  resolved["failures"]["classes"] = classes;
  s.resolved = resolved;
  // Strategies check the parameters that depend on the rest of the scenario (e.g. min_tp <= tp).
  for (const auto& st : s.strategies) find_strategy(st.name)->make(s, st.params);
  return s;
}

}  // namespace goodput
