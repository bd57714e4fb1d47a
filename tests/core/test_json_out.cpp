// JsonOut (sim/core/json_out.hpp) writes dump()'s bytes: random documents of every value kind
// (strings needing escapes or holding UTF-8, integers at the extremes, doubles whole and not,
// signed zeros, non-finite ones) written value by value against nlohmann's dump() of the same
// document.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "sim/core/json_out.hpp"

using namespace goodput;

namespace {

void write(JsonOut& w, const Json& j) {
  if (j.is_object()) {
    w.begin_object();
    for (const auto& [k, v] : j.items()) {
      w.key(k);
      write(w, v);
    }
    w.end_object();
  } else if (j.is_array()) {
    w.begin_array();
    for (const Json& v : j) write(w, v);
    w.end_array();
  } else if (j.is_string()) {
    w.value(j.get_ref<const std::string&>());
  } else if (j.is_boolean()) {
    w.value(j.get<bool>());
  } else if (j.is_number_unsigned()) {
    w.value(j.get<std::uint64_t>());
  } else if (j.is_number_integer()) {
    w.value(j.get<std::int64_t>());
  } else {
    w.value(j.get<double>());
  }
}

std::string written(const Json& j) {
  std::string out;
  JsonOut w(out);
  write(w, j);
  return out;
}

const std::vector<std::string> kStrings = {
    "",       "running",   "gpu/12492",   "report.html's timeline",    "quote \" in",
    "back\\", "tab\there", "line\nbreak", std::string("nul\0byte", 8), "\x01\x1f\x7f",
    "tést",   "日本語",    "emoji 😀",     "{\"not\": json}",           "faults 31"};

double random_double(std::mt19937_64& rng) {
  switch (rng() % 10) {
    case 0: {
      const double special[] = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                0.5,
                                1e15,
                                -1e15,
                                999999999999999.0,
                                -999999999999999.0,
                                1e16,
                                4503599627370496.0,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::denorm_min(),
                                1e-5,
                                1e-4,
                                0.1};
      return special[rng() % std::size(special)];
    }
    case 1:  // a whole number of any size below 1e15
      return static_cast<double>(static_cast<std::int64_t>(rng() % 1000000000000000ull)) *
             (rng() % 2 ? 1 : -1);
    case 2:  // a small whole number
      return static_cast<double>(static_cast<int>(rng() % 2001) - 1000);
    case 3:  // a rate
      return static_cast<double>(rng() % 1000) / 7.0;
    default: {  // any bit pattern's magnitude, from tiny to huge
      const double m = std::ldexp(static_cast<double>(rng() >> 11), -53);
      return std::ldexp(m, static_cast<int>(rng() % 120) - 60) * (rng() % 2 ? 1 : -1);
    }
  }
}

Json random_value(std::mt19937_64& rng, int depth) {
  const auto kind = rng() % (depth < 3 ? 8 : 6);
  switch (kind) {
    case 0:
      return kStrings[rng() % kStrings.size()];
    case 1:
      return rng() % 2 == 0;
    case 2: {
      const std::int64_t ints[] = {0,
                                   -1,
                                   7,
                                   std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::int64_t>::max(),
                                   static_cast<std::int64_t>(rng())};
      return ints[rng() % std::size(ints)];
    }
    case 3:
      return rng() % 2 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t{rng()};
    case 4:
    case 5:
      return random_double(rng);
    case 6: {
      Json a = Json::array();
      for (auto n = rng() % 4; n-- > 0;) a.push_back(random_value(rng, depth + 1));
      return a;
    }
    default: {
      Json o = Json::object();
      for (auto n = rng() % 4; n-- > 0;)
        o[kStrings[rng() % kStrings.size()]] = random_value(rng, depth + 1);
      return o;
    }
  }
}

}  // namespace

TEST_CASE("JsonOut writes the bytes dump() writes, on random documents") {
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 20000; ++i) {
    Json doc = Json::object();
    for (auto n = 1 + rng() % 5; n-- > 0;)
      doc[kStrings[rng() % kStrings.size()]] = random_value(rng, 0);
    const std::string expect = doc.dump();
    CAPTURE(expect);
    REQUIRE(written(doc) == expect);
  }
}

TEST_CASE("JsonOut: doubles, whole and not, as dump() writes each") {
  std::mt19937_64 rng(15);
  for (int i = 0; i < 200000; ++i) {
    const double x = random_double(rng);
    CAPTURE(x);
    REQUIRE(written(Json(x)) == Json(x).dump());
  }
  // Whole numbers just below the bound, where digits run out: every one near 1e15 and 2^k.
  for (double base : {1e15, 1e14, 4503599627370496.0 / 8, 1e10}) {
    for (int k = 1; k <= 2000; ++k) {
      const double x = base - k;
      CAPTURE(x);
      REQUIRE(written(Json(x)) == Json(x).dump());
      REQUIRE(written(Json(-x)) == Json(-x).dump());
    }
  }
}

TEST_CASE("JsonOut places commas between members and elements at every level") {
  std::string out;
  JsonOut w(out);
  w.begin_object().member("a", 1).key("b").begin_array();
  w.value(true).begin_object().end_object().begin_array().end_array().value("x");
  w.end_array().key("c").raw("[1,2]").member("d", 0.25).end_object();
  CHECK(out == R"({"a":1,"b":[true,{},[],"x"],"c":[1,2],"d":0.25})");
}
