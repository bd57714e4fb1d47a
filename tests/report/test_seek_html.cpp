// Goal seek explained (seek_html.hpp): the reason there is no answer names what missed and what
// to try; the HTML section shows the target, the answer or the reason, and every evaluation.
#include <doctest/doctest.h>

#include "sim/sweep/seek_html.hpp"

using namespace goodput;

namespace {

Json step(long v, double mean, double ci, bool meets) {
  return {{"value", v},         {"mean", mean}, {"ci95", ci},
          {"bound", mean - ci}, {"seeds", 4},   {"meets", meets}};
}

// A goodput>=target seek over [0, 8] whose maximum gives `top`.
Json seek(double target, Json answer, Json steps, const std::string& bound = "lower 95% CI bound") {
  return {
      {"pointer", "/cluster/spare_domains"},
      {"min", 0},
      {"max", 8},
      {"strategy", "dp_drop"},
      {"metric", "goodput"},
      {"unit", "fraction"},
      {"comparison", ">="},
      {"target", target},
      {"rule", "95% CI bound"},
      {"bound", bound},
      {"answer", answer},
      {"assumption", "goodput does not decrease as /cluster/spare_domains grows (bisection: ...)"},
      {"evaluated", steps},
      {"warnings", Json::array()}};
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("seek_reason: empty with an answer, otherwise why the maximum misses") {
  const Json answered =
      seek(0.95, 2, Json::array({step(8, 0.97, 0.01, true), step(0, 0.90, 0.01, false)}));
  CHECK(seek_reason(answered).empty());

  // The mean misses: raise --max or relax the target.
  const Json low =
      seek(0.99, nullptr, Json::array({step(8, 0.97, 0.01, false), step(0, 0.9, 0.01, false)}));
  const std::string r = seek_reason(low);
  CHECK(r.find("/cluster/spare_domains = 8") != std::string::npos);
  CHECK(r.find("97%") != std::string::npos);
  CHECK(r.find("raise --max") != std::string::npos);
  CHECK(r.find("more seeds") == std::string::npos);

  // The mean meets, the CI bound does not: more seeds may decide it.
  const Json wide =
      seek(0.96, nullptr, Json::array({step(8, 0.97, 0.02, false), step(0, 0.9, 0.01, false)}));
  const std::string w = seek_reason(wide);
  CHECK(w.find("meets >= 96%") != std::string::npos);
  CHECK(w.find("more seeds") != std::string::npos);

  // One seed: the mean decides, no CI to blame.
  const Json one = seek(0.99, nullptr, Json::array({step(8, 0.97, 0, false)}), "mean");
  CHECK(seek_reason(one).find("one seed") != std::string::npos);
}

TEST_CASE("the seek HTML section shows the target, the answer or the reason, every evaluation") {
  const Json steps =
      Json::array({step(8, 0.97, 0.01, true), step(0, 0.90, 0.01, false), step(4, 0.96, 0.01, true),
                   step(2, 0.94, 0.01, false), step(3, 0.955, 0.01, true)});
  const std::string html = seek_html_section(seek(0.94, 3, steps));
  CHECK(html.find("dp_drop goodput &gt;= 94%") != std::string::npos);
  CHECK(html.find("<code>/cluster/spare_domains</code> = 3</b>") != std::string::npos);
  CHECK(html.find("seek-reason") == std::string::npos);
  CHECK(count(html, "<tr><td>") == 5);  // one row per evaluation

  const std::string none = seek_html_section(
      seek(0.99, nullptr, Json::array({step(8, 0.97, 0.01, false), step(0, 0.9, 0.01, false)})));
  CHECK(none.find("none in [0, 8]") != std::string::npos);
  CHECK(none.find("id=\"seek-reason\"") != std::string::npos);
  CHECK(count(none, "<tr><td>") == 2);

  const HtmlChart chart = seek_chart(seek(0.94, 3, steps));
  CHECK(chart.spec["layer"][0]["data"]["values"].size() == 5);
  CHECK(chart.spec["layer"][2]["data"]["values"][0]["target"] == 0.94);
}
