// The price list of recovery mechanisms, resolved for one scenario: the value every strategy
// pays for the same physical action (declared in /recovery, scenario_params.cpp; the checkpoint
// load in /checkpoint). State moves left open in the scenario are derived from the bytes moved
// by the cost model (0 under the proportional model). The report prints this list.
#pragma once

#include <string>

#include "models/job/job_signals.hpp"
#include "models/scenario/scenario.hpp"

namespace goodput {

class CostModel;

// NtpReshard: its price for one rank leaving a full TP group (tp -> tp - 1); ntp pays it per TP
// group whose degree changes (ntp_reshard_price_s of that group's degrees), as NtpReconfig.
// Rejoin: /recovery/rejoin_s, else the communicator rebuild's price.
double mechanism_price_s(const Scenario& s, const CostModel* cost, Mechanism m);
// An NTP reshard between two TP degrees of a group.
double ntp_reshard_price_s(const Scenario& s, const CostModel* cost, int from, int to);
// Where the price comes from: the scenario key, or how it was derived.
std::string mechanism_price_source(const Scenario& s, const CostModel* cost, Mechanism m);

}  // namespace goodput
