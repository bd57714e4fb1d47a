// Parameters declared once. A ParamSection lists the keys an input object accepts (name,
// type, unit, default, range, one-line doc). ParamReader validates a JSON object against a
// section (unknown keys, wrong types, out-of-range values, missing required keys all throw
// InputError with the file and JSON pointer), hands out typed values, and records the
// resolved values (defaults filled in) into an output tree. `goodput describe` and the README
// tables are printed from the same sections.
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/core/error.hpp"

namespace goodput {

using Json = nlohmann::ordered_json;

// Integers in inputs are exact up to 2^53 (JSON numbers are doubles to most readers).
inline constexpr double kMaxExactInteger = 9007199254740992.0;

enum class ParamType {
  Number,
  Integer,
  Boolean,
  String,
  Enum,
  Object,
  ObjectList,
  NumberList,
  IntegerList,
  StringList
};

struct ParamSection;

struct ParamDecl {
  std::string key;
  ParamType type = ParamType::Number;
  std::string unit;    // "s", "h", "GPUs", ... ("" when dimensionless)
  Json default_value;  // null: required (Object/ObjectList: absent means empty)
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices;  // Enum values
  std::string doc;
  const ParamSection* nested = nullptr;  // Object / ObjectList element schema (null: free-form)
  bool optional = false;                 // absent is allowed and has no default
  bool nullable = false;       // null is a valid value (the key is still required unless defaulted)
  bool required = false;       // must be given (an Object or ObjectList; absent is otherwise empty)
  bool min_exclusive = false;  // the range excludes `min` (> min rather than >= min)
  std::vector<std::string> words{};  // a Number or Integer may be one of these strings instead
                                     // ("auto"); the type reads "integer or auto"
};

struct ParamSection {
  std::string name;  // e.g. "hot_spares"
  std::string doc;
  std::vector<ParamDecl> params;
  const ParamDecl* find(const std::string& key) const;
};

class ParamReader {
 public:
  // Validates `in` (must be an object) against `section`; writes resolved values into *out.
  ParamReader(const Json& in, const ParamSection& section, std::string file, std::string pointer,
              Json* out);

  double number(const std::string& key) const;
  std::int64_t integer(const std::string& key) const;
  int integer32(const std::string& key) const;  // throws InputError when it does not fit an int
  bool boolean(const std::string& key) const;
  std::string string(const std::string& key) const;  // String and Enum
  std::vector<double> numbers(const std::string& key) const;
  std::vector<std::int64_t> integers(const std::string& key) const;
  std::vector<std::string> strings(const std::string& key) const;
  ParamReader object(const std::string& key) const;
  std::vector<ParamReader> objects(const std::string& key) const;
  const Json& raw(const std::string& key) const;  // the value as given (or the default)
  bool present(const std::string& key) const;     // given in the input (not defaulted)
  bool is_null(const std::string& key) const;     // a nullable key given as null

  InputError error(const std::string& key, const std::string& message) const;
  const std::string& file() const { return file_; }
  std::string pointer(const std::string& key) const;

 private:
  const ParamDecl& decl(const std::string& key) const;
  void validate(const ParamDecl& d, const Json& v, const std::string& ptr) const;

  const Json* in_;
  const ParamSection* section_;
  std::string file_;
  std::string pointer_;
  Json* out_;
};

// Whether `d` must be given: declared required, or a value without a default that is neither
// optional nor an object or list of objects (those, absent, are empty).
bool must_be_given(const ParamDecl& d);

// Markdown table of a section (name, type, unit, default, range, doc).
std::string describe_section_markdown(const ParamSection& section);
std::string param_type_name(const ParamDecl& d);

// Applies "/json/pointer=value" (value parsed as JSON where it parses, else as a string).
// With `schema`, missing parent objects that the schema declares as objects are created
// (`/recovery/detection_s=60` on a file without /recovery); without it, or for parents the
// schema does not declare, a missing parent is an error naming --set.
void apply_override(Json& scenario, const std::string& assignment, const std::string& origin,
                    const ParamSection* schema = nullptr);
// The declaration a JSON pointer names under `root` ("/cluster/spare_domains"), or null.
const ParamDecl* find_decl(const ParamSection& root, const std::string& pointer);

}  // namespace goodput

namespace goodput::param {
// Builders for declarations, so tables read as one line per parameter.
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline ParamDecl number(std::string key, std::string unit, Json def, double min, double max,
                        std::string doc) {
  return {std::move(key), ParamType::Number, std::move(unit), std::move(def), min, max, {},
          std::move(doc)};
}
inline ParamDecl integer(std::string key, std::string unit, Json def, double min, double max,
                         std::string doc) {
  return {std::move(key), ParamType::Integer, std::move(unit), std::move(def), min, max, {},
          std::move(doc)};
}
inline ParamDecl boolean(std::string key, bool def, std::string doc) {
  return {std::move(key), ParamType::Boolean, "", Json(def), -kInf, kInf, {}, std::move(doc)};
}
inline ParamDecl text(std::string key, Json def, std::string doc) {
  return {std::move(key), ParamType::String, "", std::move(def), -kInf, kInf, {}, std::move(doc)};
}
inline ParamDecl choice(std::string key, std::vector<std::string> choices, Json def,
                        std::string doc) {
  return {std::move(key),     ParamType::Enum, "", std::move(def), -kInf, kInf,
          std::move(choices), std::move(doc)};
}
inline ParamDecl object(std::string key, const ParamSection* nested, std::string doc) {
  return {std::move(key), ParamType::Object, "", Json(), -kInf, kInf, {}, std::move(doc), nested};
}
inline ParamDecl objects(std::string key, const ParamSection* nested, std::string doc) {
  return {std::move(key),
          ParamType::ObjectList,
          "",
          Json(),
          -kInf,
          kInf,
          {},
          std::move(doc),
          nested,
          true};
}
inline ParamDecl strings(std::string key, Json def, std::string doc) {
  return {std::move(key), ParamType::StringList, "", std::move(def), -kInf, kInf, {},
          std::move(doc)};
}
inline ParamDecl numbers(std::string key, std::string unit, Json def, double min, double max,
                         std::string doc) {
  return {std::move(key), ParamType::NumberList, std::move(unit), std::move(def), min, max, {},
          std::move(doc)};
}
inline ParamDecl integers(std::string key, std::string unit, Json def, double min, double max,
                          std::string doc) {
  return {std::move(key), ParamType::IntegerList, std::move(unit), std::move(def), min, max, {},
          std::move(doc)};
}
inline ParamDecl optional(ParamDecl d) {
  d.optional = true;
  return d;
}
// The value may be null (still required unless it has a default).
inline ParamDecl nullable(ParamDecl d) {
  d.nullable = true;
  return d;
}
// Must be given: for objects and lists of objects, which are otherwise empty when absent.
inline ParamDecl required(ParamDecl d) {
  d.required = true;
  d.default_value = Json();
  return d;
}
// A number or integer that may instead be one of `words` (e.g. "auto").
inline ParamDecl or_words(ParamDecl d, std::vector<std::string> words) {
  d.words = std::move(words);
  return d;
}
// A number above `min`, not equal to it (e.g. > 0).
inline ParamDecl above_min(ParamDecl d) {
  d.min_exclusive = true;
  return d;
}
}  // namespace goodput::param
