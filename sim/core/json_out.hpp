// Appends JSON text to a string, value by value, exactly as nlohmann::json's dump() (no indent)
// writes the same document: for outputs of many small records (the timeline's thousands of
// events), which a document built first costs tens of thousands of instructions each.
// The caller writes the structure in order (begin/end, key before each member's value); commas
// are placed here. A string of printable ASCII without '"' or '\' is copied as it is (what dump()
// writes for it), a finite double is written by the routine dump() uses (nlohmann's
// detail::to_chars, as its serializer calls it); anything else (escapes, UTF-8, which dump()
// checks, non-finite doubles) is written by dump() itself, so every byte is nlohmann's
// (tests/core/test_json_out.cpp checks them against dump()).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "sim/core/params.hpp"

namespace goodput {

class JsonOut {
 public:
  explicit JsonOut(std::string& out) : out_(out) {}

  JsonOut& begin_object() { return open('{'); }
  JsonOut& end_object() { return close('}'); }
  JsonOut& begin_array() { return open('['); }
  JsonOut& end_array() { return close(']'); }
  // A member's name; its value follows.
  JsonOut& key(std::string_view k) {
    comma();
    string_text(k);
    out_ += ':';
    need_comma_ = false;
    return *this;
  }
  JsonOut& value(std::string_view s) {
    comma();
    string_text(s);
    need_comma_ = true;
    return *this;
  }
  JsonOut& value(const char* s) { return value(std::string_view(s)); }
  JsonOut& value(const std::string& s) { return value(std::string_view(s)); }
  JsonOut& value(bool b) {
    comma();
    out_ += b ? "true" : "false";
    need_comma_ = true;
    return *this;
  }
  template <class I>
  requires(std::is_integral_v<I> && !std::is_same_v<I, bool>) JsonOut& value(I i) {
    comma();
    integer(i);
    need_comma_ = true;
    return *this;
  }
  JsonOut& value(double x) {
    comma();
    if (std::isfinite(x)) {  // dump()'s own routine for a finite double (its serializer's)
      char buf[64];
      out_.append(buf, nlohmann::detail::to_chars(buf, buf + sizeof buf, x));
    } else {
      out_ += Json(x).dump();
    }
    need_comma_ = true;
    return *this;
  }
  // A complete JSON value's text, as it is (e.g. an array another JsonOut wrote).
  JsonOut& raw(std::string_view json) {
    comma();
    out_ += json;
    need_comma_ = true;
    return *this;
  }
  // key(k).value(v)
  template <class T>
  JsonOut& member(std::string_view k, const T& v) {
    return key(k).value(v);
  }

 private:
  JsonOut& open(char c) {
    comma();
    out_ += c;
    need_comma_ = false;
    return *this;
  }
  JsonOut& close(char c) {
    out_ += c;
    need_comma_ = true;
    return *this;
  }
  void comma() {
    if (need_comma_) out_ += ',';
  }
  template <class I>
  void integer(I i) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, i);
    out_.append(buf, r.ptr);
  }
  void string_text(std::string_view s) {
    for (const char c : s)
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        out_ += Json(std::string(s)).dump();
        return;
      }
    out_ += '"';
    out_ += s;
    out_ += '"';
  }

  std::string& out_;
  bool need_comma_ = false;  // a value was written at this level: the next one needs a comma
};

}  // namespace goodput
