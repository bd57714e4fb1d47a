// JSON-pointer locators (RFC 6901) for error messages: the one token escaper, nlohmann's own
// (json_pointer's "/" appends a reference token; to_string() escapes "~" as "~0", "/" as "~1").
// Header-only (nlohmann/json and std), so calibrate's standalone build shares it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace goodput {

// One reference token, escaped: pointer_token("a/b~c") == "a~1b~0c".
inline std::string pointer_token(const std::string& key) {
  return (nlohmann::json::json_pointer() / key).to_string().substr(1);
}

// `pointer` ("" for the root) followed by the token `key` or the array index `index`:
// pointer_append("/strategies", "a/b") == "/strategies/a~1b".
inline std::string pointer_append(const std::string& pointer, const std::string& key) {
  return pointer + "/" + pointer_token(key);
}
inline std::string pointer_append(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

}  // namespace goodput
