// The calibration profile's format, declared once: one bound section per JSON object of a
// profile (sim/core/param_binding.hpp), each row a key with its type, unit, range and doc, bound
// to the struct field it fills. The reader (profile_read.cpp) fills a Profile from them with the
// simulator's strict reader (unknown, missing, ill-typed and out-of-range keys are errors with
// the JSON pointer) and then checks what spans several keys; the writer (profile_write.cpp)
// writes the same rows back, in their order; `goodput describe profile` prints them, which
// generates the format tables of calibrate/README.md. A key is spelled here only.
#pragma once

#include <vector>

#include "calibrate/profile/profile_types.hpp"
#include "sim/core/param_binding.hpp"

namespace goodput::calib::profile_sections {

// The whole profile (the root object and, through it, every nested one).
const BoundSection<Profile>& profile();

// Every section of the format with the JSON pointer it sits at ("/", "/device", "/gemm/N", ...),
// root first, in the order a profile lists them.
struct PlacedSection {
  const char* pointer;
  const ParamSection* section;
};
const std::vector<PlacedSection>& all();

}  // namespace goodput::calib::profile_sections
