// Shared by the libFuzzer harnesses in fuzz/. A harness reports a finding by aborting (libFuzzer
// then saves the input): sanitizer reports, crashes, and also
//  - any exception other than goodput::InputError (the CLI would exit 1, "internal error",
//    where every input problem must exit 2 naming the file),
//  - a loaded scenario whose values break their declared ranges,
//  - a run whose metrics break the accounting invariants (Goodput and ETTR in [0, 1], badput
//    buckets >= 0, goodput + buckets == 1 within 1e-9).
// The simulation step is bounded so one execution stays fast: small clusters only, one seed,
// a horizon clamped to a few days, and a cap on the expected number of faults. Inputs beyond
// those bounds are loaded and validated but not simulated (the work budget is the CLI's job).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "models/scenario/scenario.hpp"
#include "sim/core/error.hpp"

namespace goodput::fuzz {

[[noreturn]] void fail(const std::string& what);
// GOODPUT_FUZZ_VERBOSE=1: note() prints how far each input got (to check a corpus's reach).
bool verbose();
void note(const std::string& what);

// Runs body(); returns true when it completed, false when it threw goodput::InputError;
// aborts (fail) on any other exception, naming `stage`.
template <class Body>
bool input_errors_only(const char* stage, Body&& body);

// A private folder for this process (created once, under $TMPDIR or /tmp).
const std::string& scratch_dir();
void write_file(const std::string& path, const std::uint8_t* data, std::size_t size);
std::string source_dir();  // the repository root (GOODPUT_SOURCE_DIR)

// Checks the loaded scenario against the declared ranges (struct fields and the resolved tree).
void check_loaded(const Scenario& s);

// True when every file the scenario names lies under one of the allowed roots (the source
// tree, the scratch folder), so a fuzzed path never makes the harness read /dev/zero.
bool files_are_safe(const Scenario& s);

// make_plan and, when the scenario is small enough, one short run of every strategy (time or
// snapshot mode) with the metric invariants checked. `max_strategies` keeps executions fast.
void plan_and_run(Scenario s, std::size_t max_strategies = 5);

// ---- implementation ----

template <class Body>
bool input_errors_only(const char* stage, Body&& body) {
  try {
    body();
    return true;
  } catch (const InputError& e) {
    if (verbose()) note(std::string(stage) + ": " + e.what());
    return false;
  } catch (const std::exception& e) {
    fail(std::string(stage) + ": exception other than InputError (CLI exit 1): " + e.what());
  }
}

}  // namespace goodput::fuzz
