// Parameters bound to the struct fields they fill. One row declares a parameter (key, unit,
// range, doc) and names the member it fills; its default is that member's initial value in a
// default-constructed struct, so a default is written once, in the struct. A BoundSection is
// a ParamSection (for the loader's validation, `goodput describe` and the README tables) plus,
// per row, how to fill the field from a validated ParamReader and how to write it back.
//
// Contract: BoundSection::fill reads every bound row; an `optional` row that is absent leaves
// its field as it was. Rows made with `declared` carry a declaration only (a value that needs
// more than a copy: a path resolved against the scenario file, a preset-dependent default);
// the caller reads those by key. `values` writes every bound field under its key.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/core/enum_names.hpp"
#include "sim/core/params.hpp"

namespace goodput {

template <class S>
struct BoundParam {
  ParamDecl decl;
  std::function<void(const ParamReader&, S&)> fill;  // null: declared only
  std::function<void(const S&, Json&)> store;        // writes the field under decl.key
};

template <class S>
class BoundSection {
 public:
  BoundSection(std::string name, std::string doc, std::vector<BoundParam<S>> rows)
      : rows_(std::move(rows)) {
    section_.name = std::move(name);
    section_.doc = std::move(doc);
    for (const auto& row : rows_) section_.params.push_back(row.decl);
  }
  const ParamSection& section() const { return section_; }
  const std::vector<BoundParam<S>>& rows() const { return rows_; }

  void fill(const ParamReader& r, S& out) const {
    for (const auto& row : rows_)
      if (row.fill && (!row.decl.optional || r.present(row.decl.key))) row.fill(r, out);
  }
  // A struct filled from a validated reader (its other fields default).
  S read(const ParamReader& r) const {
    S out{};
    fill(r, out);
    return out;
  }
  // A section's values as stored (already validated, e.g. StrategyConfig::params).
  S read(const Json& params) const { return read(ParamReader(params, section_, "", "", nullptr)); }
  Json values(const S& s) const {
    Json out = Json::object();
    for (const auto& row : rows_)
      if (row.store) row.store(s, out);
    return out;
  }

 private:
  ParamSection section_;
  std::vector<BoundParam<S>> rows_;
};

}  // namespace goodput

namespace goodput::field {

namespace detail {

template <class S, class T>
Json default_of(T S::*member) {
  return Json(S{}.*member);
}

template <class S, class T, class Read>
BoundParam<S> make(T S::*member, ParamDecl decl, Read read) {
  const std::string key = decl.key;
  return {std::move(decl),
          [member, key, read](const ParamReader& r, S& s) { s.*member = read(r, key); },
          [member, key](const S& s, Json& out) { out[key] = s.*member; }};
}

}  // namespace detail

// A number (double member).
template <class S>
BoundParam<S> number(double S::*member, std::string key, std::string unit, double min, double max,
                     std::string doc) {
  return detail::make(member,
                      param::number(std::move(key), std::move(unit), detail::default_of(member),
                                    min, max, std::move(doc)),
                      [](const ParamReader& r, const std::string& k) { return r.number(k); });
}

// An integer (int, std::int64_t or std::uint64_t member; an int member is range-checked).
template <class S, class T>
BoundParam<S> integer(T S::*member, std::string key, std::string unit, double min, double max,
                      std::string doc) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  return detail::make(member,
                      param::integer(std::move(key), std::move(unit), detail::default_of(member),
                                     min, max, std::move(doc)),
                      [](const ParamReader& r, const std::string& k) {
                        if constexpr (std::is_same_v<T, int>)
                          return r.integer32(k);
                        else
                          return static_cast<T>(r.integer(k));
                      });
}

// An int that may instead be the word `word` ("auto"): the word sets `flag` and `member` to
// `stand_in` (what code that needs a number before the word is acted on uses); an integer clears
// `flag`. Written back as the word while `flag` is set.
template <class S>
BoundParam<S> integer_or_word(int S::*member, bool S::*flag, std::string word, int stand_in,
                              std::string key, std::string unit, double min, double max,
                              std::string doc) {
  ParamDecl decl =
      param::or_words(param::integer(std::move(key), std::move(unit), detail::default_of(member),
                                     min, max, std::move(doc)),
                      {word});
  const std::string k = decl.key;
  return {std::move(decl),
          [member, flag, k, stand_in](const ParamReader& r, S& s) {
            s.*flag = r.raw(k).is_string();
            s.*member = s.*flag ? stand_in : r.integer32(k);
          },
          [member, flag, k, word](const S& s, Json& out) {
            out[k] = s.*flag ? Json(word) : Json(s.*member);
          }};
}

template <class S>
BoundParam<S> boolean(bool S::*member, std::string key, std::string doc) {
  return detail::make(member, param::boolean(std::move(key), S{}.*member, std::move(doc)),
                      [](const ParamReader& r, const std::string& k) { return r.boolean(k); });
}

template <class S>
BoundParam<S> text(std::string S::*member, std::string key, std::string doc) {
  return detail::make(member,
                      param::text(std::move(key), detail::default_of(member), std::move(doc)),
                      [](const ParamReader& r, const std::string& k) { return r.string(k); });
}

template <class S>
BoundParam<S> numbers(std::vector<double> S::*member, std::string key, std::string unit, double min,
                      double max, std::string doc) {
  return detail::make(member,
                      param::numbers(std::move(key), std::move(unit), detail::default_of(member),
                                     min, max, std::move(doc)),
                      [](const ParamReader& r, const std::string& k) { return r.numbers(k); });
}

template <class S>
BoundParam<S> strings(std::vector<std::string> S::*member, std::string key, std::string doc) {
  return detail::make(member,
                      param::strings(std::move(key), detail::default_of(member), std::move(doc)),
                      [](const ParamReader& r, const std::string& k) { return r.strings(k); });
}

// An enumerated setting: its choices and default name come from the enum's one name table.
template <class S, class E, std::size_t N>
BoundParam<S> choice(E S::*member, const EnumName<E> (&table)[N], std::string key,
                     std::string doc) {
  const EnumName<E>(*names)[N] = &table;
  BoundParam<S> p = detail::make(member,
                                 param::choice(std::move(key), enum_choices(table),
                                               enum_name(table, S{}.*member), std::move(doc)),
                                 [names](const ParamReader& r, const std::string& k) {
                                   return enum_value(*names, r.string(k));
                                 });
  p.store = [member, names, k = p.decl.key](const S& s, Json& out) {
    out[k] = enum_name(*names, s.*member);
  };
  return p;
}

// A string member that must be one of `choices` (a registry's names).
template <class S>
BoundParam<S> choice(std::string S::*member, std::vector<std::string> choices, std::string key,
                     std::string doc) {
  return detail::make(
      member,
      param::choice(std::move(key), std::move(choices), detail::default_of(member), std::move(doc)),
      [](const ParamReader& r, const std::string& k) { return r.string(k); });
}

// Required: no default (the member's initial value is only for code that builds S directly).
template <class S>
BoundParam<S> required(BoundParam<S> p) {
  p.decl.default_value = Json();
  return p;
}

// Optional: may be absent, has no declared default; absent leaves the field as it was (its
// initial value says what absence means, e.g. -1 for "derive it").
template <class S>
BoundParam<S> optional(BoundParam<S> p) {
  p.decl.default_value = Json();
  p.decl.optional = true;
  return p;
}

// An integer member that may be null (std::optional<int> or <std::int64_t>): required, and
// null is a value.
template <class S, class T>
BoundParam<S> nullable_integer(std::optional<T> S::*member, std::string key, std::string unit,
                               double min, double max, std::string doc) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  ParamDecl decl = param::nullable(
      param::integer(std::move(key), std::move(unit), Json(), min, max, std::move(doc)));
  const std::string k = decl.key;
  return {std::move(decl),
          [member, k](const ParamReader& r, S& s) {
            if (r.is_null(k))
              s.*member = std::nullopt;
            else if constexpr (std::is_same_v<T, int>)
              s.*member = r.integer32(k);
            else
              s.*member = static_cast<T>(r.integer(k));
          },
          [member, k](const S& s, Json& out) {
            out[k] = s.*member ? Json(*(s.*member)) : Json(nullptr);
          }};
}

// A list of integers (std::vector<int> member), required.
template <class S>
BoundParam<S> integers(std::vector<int> S::*member, std::string key, std::string unit, double min,
                       double max, std::string doc) {
  ParamDecl decl =
      param::integers(std::move(key), std::move(unit), Json(), min, max, std::move(doc));
  const std::string k = decl.key;
  return {std::move(decl),
          [member, k](const ParamReader& r, S& s) {
            (s.*member).clear();
            for (const std::int64_t v : r.integers(k)) (s.*member).push_back(static_cast<int>(v));
          },
          [member, k](const S& s, Json& out) { out[k] = s.*member; }};
}

// A nested object filling a struct member from its own bound section, required.
template <class S, class M>
BoundParam<S> object(M S::*member, const BoundSection<M>& nested, std::string key,
                     std::string doc) {
  ParamDecl decl =
      param::required(param::object(std::move(key), &nested.section(), std::move(doc)));
  const std::string k = decl.key;
  const BoundSection<M>* sub = &nested;
  return {std::move(decl),
          [member, k, sub](const ParamReader& r, S& s) { s.*member = sub->read(r.object(k)); },
          [member, k, sub](const S& s, Json& out) { out[k] = sub->values(s.*member); }};
}

// A nested object that may be null (std::optional<M> member), required.
template <class S, class M>
BoundParam<S> nullable_object(std::optional<M> S::*member, const BoundSection<M>& nested,
                              std::string key, std::string doc) {
  ParamDecl decl = param::nullable(
      param::required(param::object(std::move(key), &nested.section(), std::move(doc))));
  const std::string k = decl.key;
  const BoundSection<M>* sub = &nested;
  return {std::move(decl),
          [member, k, sub](const ParamReader& r, S& s) {
            s.*member = r.is_null(k) ? std::nullopt : std::optional<M>(sub->read(r.object(k)));
          },
          [member, k, sub](const S& s, Json& out) {
            out[k] = s.*member ? sub->values(*(s.*member)) : Json(nullptr);
          }};
}

// A list of objects (std::vector<M> member), each from M's bound section, required.
template <class S, class M>
BoundParam<S> objects(std::vector<M> S::*member, const BoundSection<M>& nested, std::string key,
                      std::string doc) {
  ParamDecl decl =
      param::required(param::objects(std::move(key), &nested.section(), std::move(doc)));
  const std::string k = decl.key;
  const BoundSection<M>* sub = &nested;
  return {std::move(decl),
          [member, k, sub](const ParamReader& r, S& s) {
            (s.*member).clear();
            for (const ParamReader& e : r.objects(k)) (s.*member).push_back(sub->read(e));
          },
          [member, k, sub](const S& s, Json& out) {
            Json list = Json::array();
            for (const M& m : s.*member) list.push_back(sub->values(m));
            out[k] = std::move(list);
          }};
}

// A declaration the caller reads by hand (see the contract above).
template <class S>
BoundParam<S> declared(ParamDecl decl) {
  return {std::move(decl), nullptr, nullptr};
}

// A row of a nested struct, filling outer.*member.
template <class Outer, class Inner>
BoundParam<Outer> within(Inner Outer::*member, BoundParam<Inner> p) {
  BoundParam<Outer> out{std::move(p.decl), nullptr, nullptr};
  if (p.fill)
    out.fill = [member, f = std::move(p.fill)](const ParamReader& r, Outer& o) { f(r, o.*member); };
  if (p.store)
    out.store = [member, s = std::move(p.store)](const Outer& o, Json& j) { s(o.*member, j); };
  return out;
}

}  // namespace goodput::field
