// The declared sections of a scenario file (one source for the loader, `goodput describe`
// and the README tables). Strategy sections live with their strategies (strategy_table.cpp).
// The `*_fields()` sections bind each declaration to the field it fills (param_binding.hpp):
// the loader fills the scenario's structs through them, and a default is the field's initial
// value in scenario.hpp / failure_spec.hpp / topology.hpp.
#pragma once

#include "models/scenario/scenario.hpp"
#include "sim/core/param_binding.hpp"
#include "sim/core/params.hpp"

namespace goodput::sections {

const ParamSection& scenario();
const ParamSection& cluster();
const ParamSection& gpu_spec();  // /cluster/gpu_spec: the GPU catalogue's keys
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

const BoundSection<Scenario>& scenario_fields();  // name, description, mode, horizon, seeds
const BoundSection<Scenario>& cluster_fields();   // counts over the preset's; spare_domains
const BoundSection<calib::GpuSpec>& gpu_spec_fields();
const BoundSection<JobSpec>& job_fields();
const BoundSection<Scenario>& failures_fields();  // Scenario::failures and failed_fraction
const BoundSection<FailureClassSpec>& failure_class_fields();
const BoundSection<RepairMode>& repair_mode_fields();
const BoundSection<TraceSpec>& trace_fields();
const BoundSection<RecoverySpec>& recovery_fields();
const BoundSection<CheckpointSpec>& checkpoint_fields();
const BoundSection<CostSpec>& cost_fields();
const BoundSection<Scenario>& report_fields();

}  // namespace goodput::sections
