// One name table per enum, so a name is spelled once: parameter declarations take their choices
// from it (enum_choices), the loader maps a validated name to its value (enum_value), and
// reports write the value's name (enum_name).
// Contract: a table lists every value once; enum_value() throws std::invalid_argument (naming the
// known names) on a name the table lacks, enum_name() std::logic_error on a value it lacks.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace goodput {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

template <class E, std::size_t N>
std::vector<std::string> enum_choices(const EnumName<E> (&table)[N]) {
  std::vector<std::string> out;
  out.reserve(N);
  for (const auto& e : table) out.emplace_back(e.name);
  return out;
}

template <class E, std::size_t N>
E enum_value(const EnumName<E> (&table)[N], std::string_view name) {
  for (const auto& e : table)
    if (name == e.name) return e.value;
  std::string known;
  for (const auto& e : table) known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw std::invalid_argument("unknown name '" + std::string(name) + "' (known: " + known + ")");
}

template <class E, std::size_t N>
const char* enum_name(const EnumName<E> (&table)[N], E value) {
  for (const auto& e : table)
    if (e.value == value) return e.name;
  throw std::logic_error("enum_name: a value missing from its name table");
}

}  // namespace goodput
