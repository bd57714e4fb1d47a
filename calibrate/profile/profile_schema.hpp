// The calibration profile's format, declared once: one ParamSection per JSON object of a
// profile (key, type, unit, range, doc). The reader (profile_read.cpp) validates a profile
// against these sections with the simulator's strict reader (sim/core/params.hpp), and
// `goodput describe profile` prints them, which generates the format table of
// calibrate/README.md. The writer (profile_write.cpp) must emit exactly these keys; the
// round-trip test (from_json(to_json(p)) == p) fails on any key one side lacks.
#pragma once

#include "sim/core/params.hpp"

namespace goodput::calib::profile_sections {

// Every section of the format with the JSON pointer it sits at ("/", "/device", "/gemm/N", ...),
// root first, in the order a profile lists them.
struct PlacedSection {
  const char* pointer;
  const ParamSection* section;
};
const std::vector<PlacedSection>& all();

const ParamSection& profile();  // the root object
const ParamSection& device();
const ParamSection& clocks();
const ParamSection& clock_range();
const ParamSection& settings();
const ParamSection& measurement();
const ParamSection& stop();
const ParamSection& analytical_model();
const ParamSection& model();
const ParamSection& ceilings();
const ParamSection& gemm_entry();
const ParamSection& time_stats();
const ParamSection& reshard_entry();
const ParamSection& fit();
const ParamSection& fit_stats();

}  // namespace goodput::calib::profile_sections
