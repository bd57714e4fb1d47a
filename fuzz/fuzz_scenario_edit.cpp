// libFuzzer harness: structured scenario edits. The input picks a shipped scenario
// (scenarios/*.json), optionally shrinks its job so it can be simulated, then applies a few
// edits at JSON pointers taken from the parameter declarations (every declared key of every
// section and strategy), setting edge values: 0, 0.0, -1, 1e15, 1e300, huge integers, the
// declared bounds and just past them, wrong types, or removing the key. What loads must honour
// its declared ranges, its resolved form must reload to the same resolved form, and small
// scenarios are run once with the metric invariants checked (fuzz_support.hpp).
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "models/scenario/scenario_loader.hpp"
#include "models/scenario/scenario_params.hpp"
#include "models/strategies/strategy.hpp"

using namespace goodput;

namespace {

struct Target {
  std::string pointer;
  const ParamDecl* decl;  // null: a strategy's whole parameter object
};

void collect(const ParamSection& section, const std::string& prefix, std::vector<Target>& out) {
  for (const auto& d : section.params) {
    const std::string p = prefix + "/" + d.key;
    out.push_back({p, &d});
    if (d.type == ParamType::Object && d.nested) collect(*d.nested, p, out);
    if (d.type == ParamType::ObjectList && d.nested) collect(*d.nested, p + "/0", out);
  }
}

const std::vector<Target>& targets() {
  static const std::vector<Target> all = [] {
    std::vector<Target> out;
    collect(sections::scenario(), "", out);
    for (const auto& info : strategy_table()) {
      out.push_back({"/strategies/" + info.name, nullptr});
      collect(*info.params, "/strategies/" + info.name, out);
    }
    return out;
  }();
  return all;
}

struct Base {
  std::string file;
  Json doc;
};

const std::vector<Base>& bases() {
  static const std::vector<Base> all = [] {
    std::vector<Base> out;
    for (const char* name : {"default", "llama3-16k-h100", "ntp-paper-nvl32", "trace-example",
                             "infinitehbd-replay", "lanl-system20"}) {
      const std::string file = fuzz::source_dir() + "/scenarios/" + name + ".json";
      out.push_back({file, read_json_file(file)});
    }
    return out;
  }();
  return all;
}

Json edge_value(FuzzedDataProvider& in, const ParamDecl* d) {
  const double lo = d ? d->min : 0, hi = d ? d->max : 1;
  switch (in.ConsumeIntegralInRange(0, 34)) {
    case 0:
      return 0;
    case 1:
      return 0.0;
    case 2:
      return -1;
    case 3:
      return 1;
    case 4:
      return 1.0;
    case 5:
      return 0.5;
    case 6:
      return -0.5;
    case 7:
      return 2;
    case 8:
      return 1e15;
    case 9:
      return std::int64_t{1000000000000000};
    case 10:
      return 1e300;
    case 11:
      return -1e300;
    case 12:
      return std::numeric_limits<std::int64_t>::max();
    case 13:
      return std::numeric_limits<std::int64_t>::min();
    case 14:
      return std::numeric_limits<std::uint64_t>::max();
    case 15:
      return std::int64_t{2147483648};
    case 16:
      return 4294967296.0;
    case 17:
      return 1e-300;
    case 18:
      return 1e16;
    case 19:
      return 1e12;
    case 20:
      return "";
    case 21:
      return "x";
    case 22:
      return in.ConsumeBool();
    case 23:
      return nullptr;
    case 24:
      return Json::array();
    case 25:
      return Json::object();
    case 26:
      return Json::array({1});
    case 27:
      return in.ConsumeFloatingPoint<double>();
    case 28:
      return in.ConsumeIntegral<std::int64_t>();
    case 29:
      return std::isfinite(lo) ? Json(lo) : Json(-1e308);  // the bound,
    case 30:
      return std::isfinite(hi) ? Json(hi) : Json(1e308);  // as a double
    case 31:
      return std::isfinite(lo) ? Json(std::nextafter(lo, -1e308)) : Json(-0.0);  // just past
    case 32:
      return std::isfinite(hi) ? Json(std::nextafter(hi, 1e308)) : Json(9.3e18);
    case 33:
      if (d && !d->choices.empty())
        return d->choices[in.ConsumeIntegralInRange<std::size_t>(0, d->choices.size() - 1)];
      if (d && !d->words.empty())  // a number's word ("seeds": "auto")
        return d->words[in.ConsumeIntegralInRange<std::size_t>(0, d->words.size() - 1)];
      return in.ConsumeIntegralInRange<std::int64_t>(0, 100);
    default:
      return d && !d->default_value.is_null() ? d->default_value : Json(3.0);
  }
}

void edit(Json& doc, FuzzedDataProvider& in) {
  const auto& all = targets();
  const Target& t = all[in.ConsumeIntegralInRange<std::size_t>(0, all.size() - 1)];
  const Json::json_pointer jp(t.pointer);
  try {
    switch (in.ConsumeIntegralInRange(0, 9)) {
      case 8: {  // remove the key
        const auto parent = jp.parent_pointer();
        if (doc.contains(parent) && doc.at(parent).is_object()) doc.at(parent).erase(jp.back());
        if (fuzz::verbose()) fuzz::note("edit: remove " + t.pointer);
        break;
      }
      case 9:
        doc[jp] = Json::object();
        if (fuzz::verbose()) fuzz::note("edit: " + t.pointer + " = {}");
        break;
      default: {
        const Json value = edge_value(in, t.decl);
        doc[jp] = value;
        if (fuzz::verbose()) fuzz::note("edit: " + t.pointer + " = " + value.dump());
      }
    }
  } catch (const Json::exception&) {
    // the path crosses a value that is not a container: no edit
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const Base& base = bases()[in.ConsumeIntegralInRange<std::size_t>(0, bases().size() - 1)];
  Json doc = base.doc;
  if (fuzz::verbose()) fuzz::note("base: " + base.file);
  if (in.ConsumeBool()) {  // shrink the job so the scenario is small enough to simulate
    doc["job"]["dp"] = in.ConsumeIntegralInRange(1, 4);
    doc["cluster"].erase("domains");
    doc["cluster"]["spare_domains"] = in.ConsumeIntegralInRange(0, 2);
    if (fuzz::verbose()) fuzz::note("shrunk: /job/dp = " + doc["job"]["dp"].dump());
  }
  const int edits = in.ConsumeIntegralInRange(0, 6);
  for (int i = 0; i < edits && in.remaining_bytes() > 0; ++i) edit(doc, in);

  Scenario s;
  if (!fuzz::input_errors_only("parse_scenario", [&] { s = parse_scenario(doc, base.file); }))
    return 0;
  fuzz::check_loaded(s);
  // The resolved scenario (written into report.json) must load on its own, to the same thing.
  Scenario again;
  try {
    again = parse_scenario(s.resolved, base.file);
  } catch (const std::exception& e) {
    fuzz::fail(std::string("the resolved scenario does not reload: ") + e.what());
  }
  const Json difference = Json::diff(s.resolved, again.resolved);  // key order aside
  if (!difference.empty())
    fuzz::fail("the resolved scenario reloads to a different one: " +
               difference.dump().substr(0, 300));
  fuzz::plan_and_run(s);
  return 0;
}
