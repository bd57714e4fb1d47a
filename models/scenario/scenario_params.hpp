// The declared sections of a scenario file (one source for the loader, `goodput describe`
// and the README tables). Strategy sections live with their strategies (strategy_table.cpp).
#pragma once

#include "sim/core/params.hpp"

namespace goodput::sections {

const ParamSection& scenario();
const ParamSection& cluster();
const ParamSection& job();
const ParamSection& model();
const ParamSection& failures();
const ParamSection& failure_class();
const ParamSection& repair();
const ParamSection& repair_mode();
const ParamSection& trace();
const ParamSection& recovery();
const ParamSection& checkpoint();
const ParamSection& cost();
const ParamSection& report();
const ParamSection& strategies();  // keys are strategy names (see `goodput describe strategies`)

}  // namespace goodput::sections
