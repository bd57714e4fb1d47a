// A read trace written as goodput's own CSV (what `goodput import` writes), and the records
// of it that overlap on one component (which a replay merges into one fault, README.md here).
// to_goodput_csv: the `comments` as '#' lines, the header time_hours,component,event,class, then
// one line per event in the trace's order; times in the shortest decimal form that reads back
// to the same double, classes quoted (RFC 4180) when they hold a comma, a quote or outer spaces.
// Read back with the `csv` format it gives the same events (times, components, starts, classes);
// it pairs ends by class, not by record, so nested records of one class may pair differently,
// but merge_overlapping then gives the same faults.
#pragma once

#include <string>
#include <vector>

#include "models/trace/trace.hpp"

namespace goodput::trace {

std::string to_goodput_csv(const Trace& trace, const std::vector<std::string>& comments);

// A fault_start on a component that already has an open fault (pairing as pair_faults does).
struct Overlap {
  std::string component;
  std::string open_locator;   // the record of the fault already open (the oldest one)
  std::string start_locator;  // the record that starts while it is open
};
std::vector<Overlap> overlapping_records(const Trace& trace);

}  // namespace goodput::trace
