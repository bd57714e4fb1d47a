#include "sim/core/params.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/json_pointer.hpp"
#include "sim/core/json_text.hpp"
#include "sim/core/suggest.hpp"

namespace goodput {

namespace {

std::string json_kind(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

std::string range_text(const ParamDecl& d) {
  std::ostringstream s;
  const bool lo = std::isfinite(d.min), hi = std::isfinite(d.max);
  if (lo && hi)
    s << (d.min_exclusive ? "(" : "[") << d.min << ", " << d.max << "]";
  else if (lo)
    s << (d.min_exclusive ? "> " : ">= ") << d.min;
  else if (hi)
    s << "<= " << d.max;
  return s.str();
}

}  // namespace

bool must_be_given(const ParamDecl& d) {
  return d.required || (d.default_value.is_null() && !d.optional && d.type != ParamType::Object &&
                        d.type != ParamType::ObjectList);
}

const ParamDecl* ParamSection::find(const std::string& key) const {
  for (const auto& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

namespace {

std::string type_name(const ParamDecl& d) {
  switch (d.type) {
    case ParamType::Number:
      return "number";
    case ParamType::Integer:
      return "integer";
    case ParamType::Boolean:
      return "boolean";
    case ParamType::String:
      return "string";
    case ParamType::Enum: {
      std::string s;
      for (const auto& c : d.choices) s += (s.empty() ? "" : ", ") + c;
      return s;
    }
    case ParamType::Object:
      return "object";
    case ParamType::ObjectList:
      return "list of objects";
    case ParamType::NumberList:
      return "list of numbers";
    case ParamType::IntegerList:
      return "list of integers";
    case ParamType::StringList:
      return "list of strings";
  }
  return "?";
}

}  // namespace

std::string param_type_name(const ParamDecl& d) {
  std::string t = type_name(d);
  for (const auto& w : d.words) t += " or " + w;
  return d.nullable ? t + " or null" : t;
}

ParamReader::ParamReader(const Json& in, const ParamSection& section, std::string file,
                         std::string pointer, Json* out)
    : in_(&in),
      section_(&section),
      file_(std::move(file)),
      pointer_(std::move(pointer)),
      out_(out) {
  if (!in.is_object())
    throw InputError(file_, pointer_.empty() ? "/" : pointer_,
                     "expected an object (" + section.name + "), found " + json_kind(in));
  for (const auto& [key, value] : in.items()) {
    const ParamDecl* d = section.find(key);
    if (!d) {
      std::string valid;
      std::vector<std::string> keys;
      for (const auto& p : section.params) {
        valid += (valid.empty() ? "" : ", ") + p.key;
        keys.push_back(p.key);
      }
      throw InputError(file_, pointer_append(pointer_, key),
                       "unknown key '" + key + "' in " + section.name + did_you_mean(key, keys) +
                           " (valid keys: " + valid + ")");
    }
    validate(*d, value, pointer_append(pointer_, key));
  }
  for (const auto& d : section.params) {
    const bool given = in.contains(d.key);
    if (!given && must_be_given(d))
      throw InputError(file_, pointer_append(pointer_, d.key),
                       "missing required key '" + d.key + "' (" + d.doc + ")");
    if (out_ && d.type != ParamType::Object && d.type != ParamType::ObjectList) {
      if (given)
        (*out_)[d.key] = in.at(d.key);
      else if (!d.default_value.is_null())
        (*out_)[d.key] = d.default_value;
    }
  }
}

void ParamReader::validate(const ParamDecl& d, const Json& v, const std::string& ptr) const {
  auto fail = [&](const std::string& what) {
    throw InputError(file_, ptr,
                     "expected " + what + ", found " + json_kind(v) +
                         (v.is_primitive() && !v.is_null() ? " (" + json_show(v) + ")" : ""));
  };
  if (d.nullable && v.is_null()) return;
  // ' or "auto"' after what a number or integer may be, where it may also be a word.
  std::string words;
  for (const auto& w : d.words) words += " or " + Json(w).dump();
  if (!d.words.empty() && (d.type == ParamType::Number || d.type == ParamType::Integer)) {
    const std::string range = range_text(d);
    const std::string what = (d.type == ParamType::Integer ? "an integer" : "a number") +
                             (range.empty() ? "" : " in " + range) + words;
    if (!v.is_string() && !v.is_number()) fail(what);
    if (v.is_string()) {
      for (const auto& w : d.words)
        if (v.get<std::string>() == w) return;
      fail(what);
    }
  }
  auto below = [&](double x) { return x < d.min || (d.min_exclusive && x == d.min); };
  auto check_range = [&](double x) {
    if (!std::isfinite(x)) fail("a finite number");
    if (below(x) || x > d.max)
      throw InputError(file_, ptr,
                       "value " + Json(x).dump() + " out of range " + range_text(d) +
                           (d.unit.empty() ? "" : " " + d.unit) +
                           (words.empty() ? "" : " (or" + words.substr(3) + ")"));
  };
  switch (d.type) {
    case ParamType::Number:
      if (!v.is_number()) fail("a number");
      check_range(v.get<double>());
      break;
    case ParamType::Integer:
      // 4.0 is accepted as 4, and range-checked like it; 4.5 or 1e300 is not an integer.
      if (v.is_number_float() && !(std::floor(v.get<double>()) == v.get<double>() &&
                                   std::abs(v.get<double>()) <= kMaxExactInteger))
        fail("an integer");
      if (!v.is_number()) fail("an integer");
      if (v.is_number_unsigned() &&
          v.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxExactInteger))
        fail("an integer of at most 2^53");
      check_range(v.get<double>());
      break;
    case ParamType::Boolean:
      if (!v.is_boolean()) fail("a boolean");
      break;
    case ParamType::String:
      if (!v.is_string()) fail("a string");
      break;
    case ParamType::Enum: {
      if (!v.is_string()) fail("one of " + type_name(d));
      const auto s = v.get<std::string>();
      bool ok = false;
      for (const auto& c : d.choices) ok = ok || c == s;
      if (!ok)
        throw InputError(file_, ptr, "unknown value '" + s + "' (valid: " + type_name(d) + ")");
      break;
    }
    case ParamType::Object:
      if (!v.is_object()) fail("an object");
      break;
    case ParamType::ObjectList:
      if (!v.is_array()) fail("a list of objects");
      break;
    case ParamType::NumberList:
    case ParamType::IntegerList: {
      const bool integers = d.type == ParamType::IntegerList;
      if (!v.is_array()) fail(integers ? "a list of integers" : "a list of numbers");
      for (std::size_t i = 0; i < v.size(); ++i) {
        const auto& x = v[i];
        const std::string at = pointer_append(ptr, i);
        if (!integers && !x.is_number())
          throw InputError(file_, at, "expected a number, found " + json_kind(x));
        if (integers && !x.is_number_integer())
          throw InputError(file_, at,
                           "expected an integer, found " + json_kind(x) +
                               (x.is_primitive() && !x.is_null() ? " (" + json_show(x) + ")" : ""));
        if (integers && std::abs(x.get<double>()) > kMaxExactInteger)
          throw InputError(file_, at, "expected an integer of at most 2^53");
        if (below(x.get<double>()) || x.get<double>() > d.max)
          throw InputError(file_, at, "value " + json_show(x) + " out of range " + range_text(d));
      }
      break;
    }
    case ParamType::StringList:
      if (!v.is_array()) fail("a list of strings");
      for (std::size_t i = 0; i < v.size(); ++i)
        if (!v[i].is_string())
          throw InputError(file_, pointer_append(ptr, i),
                           "expected a string, found " + json_kind(v[i]));
      break;
  }
}

const ParamDecl& ParamReader::decl(const std::string& key) const {
  const ParamDecl* d = section_->find(key);
  if (!d)
    throw std::logic_error("parameter '" + key + "' not declared in section " + section_->name);
  return *d;
}

std::string ParamReader::pointer(const std::string& key) const {
  return pointer_append(pointer_, key);
}

InputError ParamReader::error(const std::string& key, const std::string& message) const {
  return InputError(file_, key.empty() ? (pointer_.empty() ? "/" : pointer_) : pointer(key),
                    message);
}

bool ParamReader::present(const std::string& key) const {
  decl(key);
  return in_->contains(key);
}

bool ParamReader::is_null(const std::string& key) const {
  return raw(key).is_null();
}

const Json& ParamReader::raw(const std::string& key) const {
  const ParamDecl& d = decl(key);
  if (in_->contains(key)) return in_->at(key);
  return d.default_value;
}

double ParamReader::number(const std::string& key) const {
  const Json& v = raw(key);
  if (v.is_null()) throw std::logic_error("optional parameter '" + key + "' read without a check");
  return v.get<double>();
}

std::int64_t ParamReader::integer(const std::string& key) const {
  const Json& v = raw(key);
  if (v.is_null()) throw std::logic_error("optional parameter '" + key + "' read without a check");
  return v.is_number_float() ? static_cast<std::int64_t>(v.get<double>()) : v.get<std::int64_t>();
}

int ParamReader::integer32(const std::string& key) const {
  const std::int64_t v = integer(key);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw error(key, "value " + std::to_string(v) + " is too large (at most " +
                         std::to_string(std::numeric_limits<int>::max()) + ")");
  return static_cast<int>(v);
}

bool ParamReader::boolean(const std::string& key) const {
  return raw(key).get<bool>();
}

std::string ParamReader::string(const std::string& key) const {
  const Json& v = raw(key);
  if (v.is_null()) throw std::logic_error("optional parameter '" + key + "' read without a check");
  return v.get<std::string>();
}

std::vector<double> ParamReader::numbers(const std::string& key) const {
  std::vector<double> out;
  for (const auto& x : raw(key)) out.push_back(x.get<double>());
  return out;
}

std::vector<std::int64_t> ParamReader::integers(const std::string& key) const {
  std::vector<std::int64_t> out;
  for (const auto& x : raw(key)) out.push_back(x.get<std::int64_t>());
  return out;
}

std::vector<std::string> ParamReader::strings(const std::string& key) const {
  std::vector<std::string> out;
  for (const auto& x : raw(key)) out.push_back(x.get<std::string>());
  return out;
}

ParamReader ParamReader::object(const std::string& key) const {
  const ParamDecl& d = decl(key);
  static const ParamSection kFree{"object", "", {}};
  static const Json kEmpty = Json::object();
  const Json& v =
      in_->contains(key) ? in_->at(key) : (d.default_value.is_null() ? kEmpty : d.default_value);
  Json* sub = nullptr;
  if (out_) {
    (*out_)[key] = Json::object();
    sub = &(*out_)[key];
  }
  return ParamReader(v, d.nested ? *d.nested : kFree, file_, pointer(key), sub);
}

std::vector<ParamReader> ParamReader::objects(const std::string& key) const {
  const ParamDecl& d = decl(key);
  static const Json kEmpty = Json::array();
  const Json& v =
      in_->contains(key) ? in_->at(key) : (d.default_value.is_null() ? kEmpty : d.default_value);
  Json* list = nullptr;
  if (out_) {
    (*out_)[key] = Json::array();
    list = &(*out_)[key];
    for (std::size_t i = 0; i < v.size(); ++i) list->push_back(Json::object());
  }
  std::vector<ParamReader> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.emplace_back(v[i], *d.nested, file_, pointer(key) + "/" + std::to_string(i),
                     list ? &(*list)[i] : nullptr);
  return out;
}

std::string describe_section_markdown(const ParamSection& section) {
  std::ostringstream s;
  s << "| key | type | unit | default | range | meaning |\n|---|---|---|---|---|---|\n";
  for (const auto& p : section.params) {
    std::string def =
        p.default_value.is_null() ? (p.optional ? "(none)" : "required") : p.default_value.dump();
    if (p.type == ParamType::Object || p.type == ParamType::ObjectList)
      def = (p.required ? "required, see " : "see ") +
            (p.nested ? p.nested->name : std::string("below"));
    s << "| `" << p.key << "` | " << param_type_name(p) << " | " << p.unit << " | " << def << " | "
      << range_text(p) << " | " << p.doc << " |\n";
  }
  return s.str();
}

const ParamDecl* find_decl(const ParamSection& root, const std::string& pointer) {
  Json::json_pointer jp;
  try {
    jp = Json::json_pointer(pointer);
  } catch (const std::exception&) {
    return nullptr;
  }
  const ParamSection* section = &root;
  const ParamDecl* found = nullptr;
  std::vector<std::string> tokens;
  for (Json::json_pointer p = jp; !p.empty(); p = p.parent_pointer())
    tokens.insert(tokens.begin(), p.back());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!section) return nullptr;
    found = section->find(tokens[i]);
    if (!found) return nullptr;
    section = found->type == ParamType::Object ? found->nested : nullptr;
  }
  return found;
}

void apply_override(Json& scenario, const std::string& assignment, const std::string& origin,
                    const ParamSection* schema) {
  (void)origin;  // errors name the flag: the value came from the command line, not the file
  try {
    (void)Json(assignment).dump();  // throws on invalid UTF-8
  } catch (const Json::exception&) {
    throw InputError("--set", "", "the assignment is not valid UTF-8 text");
  }
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0 || assignment[0] != '/')
    throw InputError("--set", assignment, "expected /json/pointer=value");
  const std::string ptr = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  Json value;
  try {
    value = parse_json_text(text, "--set " + ptr);
  } catch (const InputError&) {
    // Not JSON: taken as a string, unless it is a number no double can hold (1e999).
    char* end = nullptr;
    errno = 0;
    (void)std::strtod(text.c_str(), &end);
    if (!text.empty() && end && *end == '\0' && errno == ERANGE)
      throw InputError("--set", ptr, "the number " + text + " is out of range");
    value = text;
  }
  Json::json_pointer jp;
  try {
    jp = Json::json_pointer(ptr);
  } catch (const std::exception& e) {
    throw InputError("--set", ptr, std::string("bad JSON pointer: ") + e.what());
  }
  const auto parent = jp.parent_pointer();
  if (schema && !scenario.contains(parent)) {
    // Create the missing ancestors the schema declares as objects, outermost first.
    std::vector<Json::json_pointer> chain;
    for (auto p = parent; !p.empty() && !scenario.contains(p); p = p.parent_pointer())
      chain.insert(chain.begin(), p);
    bool declared = true;
    for (const auto& p : chain) {
      const ParamDecl* d = find_decl(*schema, p.to_string());
      declared = declared && d && d->type == ParamType::Object;
    }
    if (declared && (chain.empty() || scenario.contains(chain.front().parent_pointer())))
      for (const auto& p : chain) scenario[p] = Json::object();
  }
  if (!scenario.contains(parent) || !scenario.at(parent).is_object()) {
    // The first missing step below an object the scenario has: a near miss of one of its keys
    // ("/strategies/ntpboost"), else how to add it ("--set /strategies/ntp_boost={}" first).
    std::string hint;
    auto above = parent;
    Json::json_pointer missing;
    for (; !above.empty() && !scenario.contains(above); above = above.parent_pointer())
      missing = above;
    if (!missing.empty() && scenario.contains(above) && scenario.at(above).is_object()) {
      std::vector<std::string> keys;
      for (const auto& [k, v] : scenario.at(above).items()) keys.push_back(k);
      hint = did_you_mean(missing.back(), keys);
      if (hint.empty())
        hint = "; to add it, give --set " + missing.to_string() + "={} before this one";
    }
    throw InputError("--set", ptr,
                     "the parent " +
                         (parent.to_string().empty() ? std::string("/") : parent.to_string()) +
                         " is not an object in the scenario" + hint);
  }
  scenario[jp] = value;
}

}  // namespace goodput
