#include "sim/core/param_json_schema.hpp"

#include <cmath>

namespace goodput {

namespace {

// A whole number as an integer (JSON Schema tools print 4 rather than 4.0).
Json bound(double x) {
  if (std::floor(x) == x && std::abs(x) <= kMaxExactInteger) return static_cast<std::int64_t>(x);
  return x;
}

void add_range(Json& s, const ParamDecl& d) {
  if (std::isfinite(d.min)) s[d.min_exclusive ? "exclusiveMinimum" : "minimum"] = bound(d.min);
  if (std::isfinite(d.max)) s["maximum"] = bound(d.max);
}

Json scalar(const char* type, const ParamDecl& d) {
  Json s = {{"type", type}};
  add_range(s, d);
  return s;
}

Json list_of(Json item) {
  return {{"type", "array"}, {"items", std::move(item)}};
}

}  // namespace

Json param_json_schema(const ParamDecl& d) {
  Json s;
  switch (d.type) {
    case ParamType::Number:
      s = scalar("number", d);
      break;
    case ParamType::Integer:
      s = scalar("integer", d);
      break;
    case ParamType::Boolean:
      s = {{"type", "boolean"}};
      break;
    case ParamType::String:
      s = {{"type", "string"}};
      break;
    case ParamType::Enum:
      s = {{"enum", d.choices}};
      break;
    case ParamType::Object:
      s = d.nested ? section_json_schema(*d.nested) : Json{{"type", "object"}};
      break;
    case ParamType::ObjectList:
      s = list_of(d.nested ? section_json_schema(*d.nested) : Json{{"type", "object"}});
      break;
    case ParamType::NumberList:
      s = list_of(scalar("number", d));
      break;
    case ParamType::IntegerList:
      s = list_of(scalar("integer", d));
      break;
    case ParamType::StringList:
      s = list_of({{"type", "string"}});
      break;
  }
  if (!d.words.empty()) s = {{"anyOf", Json::array({s, {{"enum", d.words}}})}};
  if (d.nullable) s = {{"anyOf", Json::array({s, {{"type", "null"}}})}};
  Json out = {{"description", d.unit.empty() ? d.doc : d.doc + " [" + d.unit + "]"}};
  if (!d.default_value.is_null() && !d.required) out["default"] = d.default_value;
  for (auto& [k, v] : s.items())
    if (k != "description") out[k] = v;  // a nested section's doc: the key's says it here
  return out;
}

Json section_json_schema(const ParamSection& section) {
  Json properties = Json::object();
  Json required = Json::array();
  for (const ParamDecl& d : section.params) {
    properties[d.key] = param_json_schema(d);
    if (must_be_given(d)) required.push_back(d.key);
  }
  Json s = {{"type", "object"},
            {"description", section.doc},
            {"properties", std::move(properties)},
            {"additionalProperties", false}};
  if (required.empty()) return s;
  const ParamDecl* preset = section.find("preset");
  if (preset && !must_be_given(*preset)) {  // a preset fills the rest
    s["if"] = {{"required", Json::array({"preset"})}};
    s["else"] = {{"required", std::move(required)}};
  } else {
    s["required"] = std::move(required);
  }
  return s;
}

}  // namespace goodput
