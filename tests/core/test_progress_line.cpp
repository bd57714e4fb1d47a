// The one progress display (sim/core/progress_line.hpp), off a terminal: a log that keeps every
// step's result, throttles counter lines, and never writes when off.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "sim/core/progress_line.hpp"

namespace {

// What a ProgressLine wrote to a temporary file (never a terminal, so: log mode).
template <class Use>
std::string written(bool on, Use use) {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  {
    goodput::ProgressLine p(on, f);
    use(p);
  }
  std::rewind(f);
  std::string out;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) out += static_cast<char>(c);
  std::fclose(f);
  return out;
}

}  // namespace

TEST_CASE("progress bar cells") {
  CHECK(goodput::progress_bar(0, 4, 8) == "[        ]");
  CHECK(goodput::progress_bar(2, 4, 8) == "[####    ]");
  CHECK(goodput::progress_bar(4, 4, 8) == "[########]");
  CHECK(goodput::progress_bar(9, 4, 4) == "[####]");  // more than the total: full, no overflow
  CHECK(goodput::progress_bar(1, 0, 3) == "[###]");   // no total: full
}

TEST_CASE("duration text") {
  CHECK(goodput::duration_text(45) == "45s");
  CHECK(goodput::duration_text(185) == "3m05s");
  CHECK(goodput::duration_text(3720) == "1h02m");
}

TEST_CASE("off a terminal, every step's result is its own line") {
  const std::string log = written(true, [](goodput::ProgressLine& p) {
    p.begin("measurements");
    p.note("calibrating 3 entries");
    p.step(1, 3, "qkv fwd: 600 TFLOP/s");
    p.step(2, 3, "qkv bwd");
    p.step(3, 3, "pack");
  });
  CHECK(log == "calibrating 3 entries\n[1/3] qkv fwd: 600 TFLOP/s\n[2/3] qkv bwd\n[3/3] pack\n");
}

TEST_CASE("off a terminal, counter lines come at most once a second, and the last always") {
  const std::string log = written(true, [](goodput::ProgressLine& p) {
    p.begin("runs");
    for (int i = 0; i <= 50; ++i) p.update(i, 50, 1.0);
  });
  // The first update draws; the next 49 come within a second of it; the 50th is the last.
  CHECK(log ==
        "  runs 0/50 [                              ] starting\n"
        "  runs 50/50 [##############################] 1s left\n");
  const std::string bounded = written(true, [](goodput::ProgressLine& p) {
    p.begin("probes", true);
    p.update(2, 8, 30.0);
  });
  CHECK(bounded == "  probes 2 (at most 8), up to 30s left\n");
}

TEST_CASE("a progress line that is off writes nothing") {
  CHECK(written(false, [](goodput::ProgressLine& p) {
          p.begin("runs");
          p.update(1, 2);
          p.step(2, 2, "done");
          p.note("a note");
        }).empty());
}
