// Strict reading of one JSON object, with JSON-pointer diagnostics.
// Contract: ObjectReader wraps an object at `pointer` inside `file`; each getter marks its
// key as known and throws goodput::InputError(file, pointer/key, why) when the key is
// missing or ill-typed; finish() throws for any key that no getter asked for. Nothing here
// knows about profiles; it is the strictness shared by every reader in calibrate/.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "sim/core/json_pointer.hpp"

namespace goodput::calib {

// pointer_append (sim/core/json_pointer.hpp) builds the locators of errors.

class ObjectReader {
 public:
  ObjectReader(const nlohmann::json& value, std::string file, std::string pointer);

  std::int64_t integer(const std::string& key, std::int64_t min_value = INT64_MIN);
  int int32(const std::string& key, int min_value = INT32_MIN);
  double number(const std::string& key);
  double positive(const std::string& key);      // > 0
  double non_negative(const std::string& key);  // >= 0
  bool boolean(const std::string& key);
  std::string string(const std::string& key);
  // Key required, value may be null.
  std::optional<std::int64_t> nullable_integer(const std::string& key);
  bool is_null(const std::string& key);
  // Child containers: returns the value and its pointer.
  const nlohmann::json& object(const std::string& key);
  const nlohmann::json& array(const std::string& key);

  std::string pointer_of(const std::string& key) const { return pointer_append(pointer_, key); }
  const std::string& file() const { return file_; }
  [[noreturn]] void fail(const std::string& key, const std::string& why) const;
  void finish() const;

 private:
  const nlohmann::json& get(const std::string& key);
  const nlohmann::json& value_;
  std::string file_;
  std::string pointer_;
  std::set<std::string> known_;
};

}  // namespace goodput::calib
