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
  CHECK(chart.spec["layer"][2]["data"]["values"][0]["target"] == 0.94);
}

TEST_CASE("the seek chart is zoomed to the answer and the target, not the whole range") {
  // Bisection over [0, 16]: 3 meets, 2 does not.
  const Json steps = Json::array({step(16, 0.99, 0.01, true), step(0, 0.80, 0.01, false),
                                  step(8, 0.97, 0.01, true), step(4, 0.955, 0.01, true),
                                  step(2, 0.93, 0.01, false), step(3, 0.952, 0.01, true)});
  Json k = seek(0.94, 3, steps);
  k["max"] = 16;
  const HtmlChart chart = seek_chart(k);
  const auto& x = chart.spec["layer"][1]["encoding"]["x"]["scale"]["domain"];
  const auto& y = chart.spec["layer"][1]["encoding"]["y"]["scale"]["domain"];
  const double x_lo = x[0].get<double>(), x_hi = x[1].get<double>(), y_lo = y[0].get<double>(),
               y_hi = y[1].get<double>();
  // The answer and the value below it (the bracket bisection closed) are in view, the target
  // line too; the view is narrower than the search range and than the metric's spread.
  CHECK(x_lo < 2);
  CHECK(x_hi > 3);
  CHECK(x_hi - x_lo < 16.0 / 2);
  CHECK(y_lo < 0.94);
  CHECK(y_hi > 0.94);
  CHECK(y_hi - y_lo < 0.99 + 0.01 - (0.80 - 0.01));
  CHECK(y_hi <= 1);  // a share: never past 100%
  // Only the values in view are drawn (the table lists all of them), each with its whole CI.
  const Json& drawn = chart.spec["layer"][1]["data"]["values"];
  REQUIRE(drawn.size() >= 2);
  for (const auto& d : drawn) {
    CHECK(d["value"].get<double>() >= x_lo);
    CHECK(d["value"].get<double>() <= x_hi);
    CHECK(d["lo"].get<double>() >= y_lo);
    CHECK(d["hi"].get<double>() <= y_hi);
  }
  CHECK(drawn.size() < steps.size());
  CHECK(chart.note.find("more outside this view") != std::string::npos);
  // The target drawn as a labelled line, the answer as a vertical one.
  const Json& target = chart.spec["layer"][2];
  CHECK(target["data"]["values"][0]["target"] == 0.94);
  CHECK(target["data"]["values"][0]["text"] == "target >= 94%");
  CHECK(chart.spec["layer"][3]["data"]["values"][0]["answer"] == 3);

  // No answer: the view holds the largest value, the one nearest the target, and the target.
  const Json none =
      seek(0.99, nullptr, Json::array({step(8, 0.97, 0.005, false), step(0, 0.9, 0.01, false)}));
  const SeekWindow w = seek_window(none);
  CHECK(w.x_lo < 8);
  CHECK(w.x_hi > 8);
  CHECK(w.y_hi > 0.99);
  CHECK(seek_chart(none).spec["layer"].size() == 3);  // no answer line
}
