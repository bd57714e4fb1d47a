// Bound sections (sim/core/param_binding.hpp): every row fills its own field and writes it back
// under its own key, and a declared default is the field's initial value.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/scenario_params.hpp"
#include "models/strategies/ntp_strategy.hpp"
#include "sim/core/json_pointer.hpp"
#include "sim/core/param_binding.hpp"

using namespace goodput;

namespace {

// A valid value for a declaration that differs from `current` (null when the type has none).
Json other_value(const ParamDecl& d, const Json& current) {
  switch (d.type) {
    case ParamType::Boolean:
      return !current.get<bool>();
    case ParamType::String:
      return current == "x" ? "y" : "x";
    case ParamType::Enum:
      for (const auto& c : d.choices)
        if (current != c) return c;
      return Json();
    case ParamType::StringList:
      return Json::array({"x"});
    case ParamType::IntegerList:
      return current == Json::array({2, 3}) ? Json::array({3, 2}) : Json::array({2, 3});
    case ParamType::Number:
    case ParamType::Integer:
    case ParamType::NumberList: {
      const bool integral = d.type == ParamType::Integer;
      const double now = current.is_number() ? current.get<double>() : std::nan("");
      for (double v : {d.min, d.max, now + 1, now - 1, 0.5, 2.0, 3.0}) {
        if (!std::isfinite(v) || v < d.min || v > d.max || v == now || std::abs(v) > 1e6) continue;
        if (d.min_exclusive && v == d.min) continue;
        if (integral && v != std::floor(v)) continue;
        if (d.type == ParamType::NumberList) return Json::array({v});
        return integral ? Json(static_cast<std::int64_t>(v)) : Json(v);
      }
      return Json();
    }
    default:
      return Json();
  }
}

// An input holding a valid value for every required key.
Json required_input(const ParamSection& section) {
  Json in = Json::object();
  for (const auto& d : section.params)
    if (d.default_value.is_null() && !d.optional && d.type != ParamType::Object &&
        d.type != ParamType::ObjectList)
      in[d.key] = other_value(d, Json());
  return in;
}

template <class S>
S filled(const BoundSection<S>& bound, const Json& in) {
  S out{};
  bound.fill(ParamReader(in, bound.section(), "test.json", "", nullptr), out);
  return out;
}

// For each bound row: set it to another valid value, fill, and read every field back.
template <class S>
void check_rows(const BoundSection<S>& bound) {
  const Json base_in = required_input(bound.section());
  const Json base = bound.values(filled(bound, base_in));
  int checked = 0;
  for (const auto& row : bound.rows()) {
    if (!row.fill) continue;
    CAPTURE(bound.section().name);
    CAPTURE(row.decl.key);
    REQUIRE(row.store);
    const Json v = other_value(row.decl, base.contains(row.decl.key) ? base[row.decl.key] : Json());
    REQUIRE_FALSE(v.is_null());
    Json in = base_in;
    in[row.decl.key] = v;
    const Json got = bound.values(filled(bound, in));
    CHECK(got[row.decl.key] == v);
    for (const auto& item : base.items()) {  // (doctest's message lambda: no bindings)
      const std::string key = item.key();
      if (key != row.decl.key) CHECK_MESSAGE(got[key] == item.value(), "changed: " << key);
    }
    ++checked;
  }
  CHECK(checked > 0);
}

// A row with a declared default declares its field's initial value.
template <class S>
void check_defaults(const BoundSection<S>& bound) {
  const Json initial = bound.values(S{});
  for (const auto& row : bound.rows()) {
    if (!row.store || row.decl.default_value.is_null()) continue;
    CAPTURE(row.decl.key);
    CHECK(row.decl.default_value == initial[row.decl.key]);
  }
}

template <class S>
void check_section(const BoundSection<S>& bound) {
  check_rows(bound);
  check_defaults(bound);
}

}  // namespace

TEST_CASE("every bound row of the scenario fills its own field") {
  check_section(sections::scenario_fields());
  check_section(sections::cluster_fields());
  check_section(sections::gpu_spec_fields());
  check_section(sections::job_fields());
  check_section(sections::failures_fields());
  check_section(sections::failure_class_fields());
  check_section(sections::repair_mode_fields());
  check_section(sections::trace_fields());
  check_section(sections::recovery_fields());
  check_section(sections::checkpoint_fields());
  check_section(sections::cost_fields());
  check_section(sections::report_fields());
  check_section(ntp_fields());
  check_section(ntp_boost_fields());
}

TEST_CASE("a section's declarations are its rows, in order") {
  const auto& bound = sections::recovery_fields();
  REQUIRE(bound.section().params.size() == bound.rows().size());
  for (std::size_t i = 0; i < bound.rows().size(); ++i)
    CHECK(bound.section().params[i].key == bound.rows()[i].decl.key);
  CHECK(&sections::recovery() == &bound.section());
}

namespace {
struct Probe {
  int count = 3;
  double share = -1;  // -1: derive
};
}  // namespace

TEST_CASE("an absent optional row leaves its field, a required row has no default") {
  const BoundSection<Probe> bound{
      "probe",
      "",
      {field::required(field::integer(&Probe::count, "count", "", 1, 10, "")),
       field::optional(field::number(&Probe::share, "share", "", 0, 1, ""))}};
  CHECK(bound.section().params[0].default_value.is_null());
  CHECK(bound.section().params[1].optional);
  Probe p = filled(bound, Json{{"count", 5}});
  CHECK(p.count == 5);
  CHECK(p.share == -1);
  p = filled(bound, Json{{"count", 5}, {"share", 0.25}});
  CHECK(p.share == 0.25);
  CHECK_THROWS_AS(filled(bound, Json::object()), InputError);  // count is required
}

// Error locators escape keys as RFC 6901 tokens, and parse back to the same key.
TEST_CASE("JSON-pointer locators: one escaper, round trip") {
  CHECK(pointer_token("a/b~c") == "a~1b~0c");
  CHECK(pointer_token("~1") == "~01");
  CHECK(pointer_append("/strategies", "x/y") == "/strategies/x~1y");
  CHECK(pointer_append("", "k") == "/k");
  CHECK(pointer_append("/gemm", std::size_t{3}) == "/gemm/3");
  for (const std::string key : {"plain", "a/b", "~", "~1/~0", ""}) {
    CAPTURE(key);
    const nlohmann::json::json_pointer p(pointer_append("/root", key));
    CHECK(p.back() == key);
    CHECK(p.parent_pointer().to_string() == "/root");
  }
}

namespace {

// Where a ParamReader over `in` refuses it ("" when it accepts it).
std::string refused_at(const ParamSection& section, const Json& in) {
  try {
    const ParamReader r(in, section, "f.json", "", nullptr);
    for (const auto& d : section.params)
      if (d.type == ParamType::Object && r.present(d.key) && !r.is_null(d.key))
        (void)r.object(d.key);
    return "";
  } catch (const InputError& e) {
    return e.locator();
  }
}

}  // namespace

// The declarations the calibration profile needs (profile_schema.cpp): null as a value, objects
// that must be given, integer lists, ranges open at the bottom.
TEST_CASE("nullable keys, required objects, integer lists, exclusive minimums") {
  static const ParamSection inner{
      "inner", "", {param::number("x", "", Json(), 0, param::kInf, "")}};
  const ParamSection s{
      "s",
      "",
      {param::nullable(param::integer("n", "", Json(), 0, param::kInf, "may be null")),
       param::required(param::object("o", &inner, "must be given")),
       param::integers("tp", "", Json(), 1, 64, "degrees"),
       param::above_min(param::number("p", "", Json(), 0, param::kInf, "> 0"))}};
  const Json ok = {{"n", nullptr}, {"o", {{"x", 1}}}, {"tp", {8, 6}}, {"p", 0.5}};
  CHECK(refused_at(s, ok).empty());
  const ParamReader r(ok, s, "f.json", "", nullptr);
  CHECK(r.is_null("n"));
  CHECK(r.integers("tp") == std::vector<std::int64_t>{8, 6});
  auto with = [&](const std::string& key, const Json& v) {
    Json j = ok;
    j[key] = v;
    return refused_at(s, j);
  };
  CHECK(with("n", 3).empty());
  CHECK(with("n", "x") == "/n");
  CHECK(with("p", 0.0) == "/p");  // > 0: zero is out
  CHECK(with("p", 1e-9).empty());
  CHECK(with("tp", Json::array({8, 2.5})) == "/tp/1");
  CHECK(with("tp", Json::array({8, 0})) == "/tp/1");
  CHECK(with("tp", Json::array({8, 65})) == "/tp/1");
  CHECK(with("o", nullptr) == "/o");  // not nullable
  Json missing = ok;
  missing.erase("o");
  CHECK(refused_at(s, missing) == "/o");  // a required object, named at its own key
  missing = ok;
  missing.erase("n");
  CHECK(refused_at(s, missing) == "/n");  // nullable is not optional
  CHECK(param_type_name(s.params[0]) == "integer or null");
  CHECK(describe_section_markdown(s).find("| > 0 |") != std::string::npos);
}

namespace {

struct Leaf {
  int n = 0;
};
struct Tree {
  std::optional<std::int64_t> size;
  std::vector<int> degrees;
  Leaf leaf;
  std::optional<Leaf> maybe;
  std::vector<Leaf> leaves;
};

const BoundSection<Leaf>& leaf_fields() {
  static const BoundSection<Leaf> s{
      "leaf", "", {field::required(field::integer(&Leaf::n, "n", "", 0, 100, "a count"))}};
  return s;
}

const BoundSection<Tree>& tree_fields() {
  static const BoundSection<Tree> s{
      "tree",
      "",
      {field::nullable_integer(&Tree::size, "size", "", 0, param::kInf, "may be null"),
       field::integers(&Tree::degrees, "degrees", "", 1, 8, "a list"),
       field::object(&Tree::leaf, leaf_fields(), "leaf", "required"),
       field::nullable_object(&Tree::maybe, leaf_fields(), "maybe", "required, may be null"),
       field::objects(&Tree::leaves, leaf_fields(), "leaves", "a list of leaves")}};
  return s;
}

}  // namespace

// The rows the calibration profile is declared with (profile_schema.cpp): a value written by
// `values` reads back to the same struct, and null, nested and list members keep their place.
TEST_CASE("bound nullable, nested and list members fill and write back") {
  const auto& fields = tree_fields();
  Tree t;
  t.size = 7;
  t.degrees = {8, 6};
  t.leaf.n = 3;
  t.leaves = {Leaf{1}, Leaf{2}};
  const Json written = fields.values(t);
  CHECK(written.dump() ==
        R"({"size":7,"degrees":[8,6],"leaf":{"n":3},"maybe":null,"leaves":[{"n":1},{"n":2}]})");
  Tree back;
  back.maybe = Leaf{9};  // a stale value must not survive a null
  fields.fill(ParamReader(written, fields.section(), "t.json", "", nullptr), back);
  CHECK(back.size == 7);
  CHECK(back.degrees == std::vector<int>{8, 6});
  CHECK(back.leaf.n == 3);
  CHECK_FALSE(back.maybe.has_value());
  REQUIRE(back.leaves.size() == 2);
  CHECK(back.leaves[1].n == 2);
  Json edited = written;
  edited["size"] = nullptr;
  edited["maybe"] = {{"n", 4}};
  fields.fill(ParamReader(edited, fields.section(), "t.json", "", nullptr), back);
  CHECK_FALSE(back.size.has_value());
  REQUIRE(back.maybe.has_value());
  CHECK(back.maybe->n == 4);
  CHECK(fields.values(back) == edited);
  edited["leaves"][1]["n"] = 101;  // nested rows are validated where they sit
  try {
    fields.fill(ParamReader(edited, fields.section(), "t.json", "", nullptr), back);
    FAIL("accepted an out-of-range nested value");
  } catch (const InputError& e) {
    CHECK(e.locator() == "/leaves/1/n");
  }
}
