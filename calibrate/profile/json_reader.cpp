#include "calibrate/profile/json_reader.hpp"

#include <cmath>

#include "sim/core/error.hpp"

namespace goodput::calib {

ObjectReader::ObjectReader(const nlohmann::json& value, std::string file, std::string pointer)
    : value_(value), file_(std::move(file)), pointer_(std::move(pointer)) {
  if (!value_.is_object()) {
    throw InputError(file_, pointer_.empty() ? "/" : pointer_, "expected a JSON object");
  }
}

void ObjectReader::fail(const std::string& key, const std::string& why) const {
  throw InputError(file_, pointer_of(key), why);
}

const nlohmann::json& ObjectReader::get(const std::string& key) {
  known_.insert(key);
  auto it = value_.find(key);
  if (it == value_.end()) fail(key, "missing required field");
  return *it;
}

std::int64_t ObjectReader::integer(const std::string& key, std::int64_t min_value) {
  const auto& v = get(key);
  if (!v.is_number_integer()) fail(key, "expected an integer");
  const std::int64_t x = v.get<std::int64_t>();
  if (x < min_value) fail(key, "must be >= " + std::to_string(min_value));
  return x;
}

int ObjectReader::int32(const std::string& key, int min_value) {
  const std::int64_t x = integer(key, min_value);
  if (x > INT32_MAX) fail(key, "out of range");
  return static_cast<int>(x);
}

double ObjectReader::number(const std::string& key) {
  const auto& v = get(key);
  if (!v.is_number()) fail(key, "expected a number");
  const double x = v.get<double>();
  if (!std::isfinite(x)) fail(key, "expected a finite number");
  return x;
}

double ObjectReader::positive(const std::string& key) {
  const double x = number(key);
  if (!(x > 0.0)) fail(key, "must be > 0");
  return x;
}

double ObjectReader::non_negative(const std::string& key) {
  const double x = number(key);
  if (x < 0.0) fail(key, "must be >= 0");
  return x;
}

bool ObjectReader::boolean(const std::string& key) {
  const auto& v = get(key);
  if (!v.is_boolean()) fail(key, "expected true or false");
  return v.get<bool>();
}

std::string ObjectReader::string(const std::string& key) {
  const auto& v = get(key);
  if (!v.is_string()) fail(key, "expected a string");
  return v.get<std::string>();
}

std::optional<std::int64_t> ObjectReader::nullable_integer(const std::string& key) {
  if (is_null(key)) return std::nullopt;
  return integer(key);
}

bool ObjectReader::is_null(const std::string& key) {
  return get(key).is_null();
}

const nlohmann::json& ObjectReader::object(const std::string& key) {
  const auto& v = get(key);
  if (!v.is_object()) fail(key, "expected an object");
  return v;
}

const nlohmann::json& ObjectReader::array(const std::string& key) {
  const auto& v = get(key);
  if (!v.is_array()) fail(key, "expected an array");
  return v;
}

void ObjectReader::finish() const {
  for (auto it = value_.begin(); it != value_.end(); ++it) {
    if (!known_.count(it.key())) fail(it.key(), "unknown field");
  }
}

}  // namespace goodput::calib
