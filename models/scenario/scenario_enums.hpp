// The scenario's enumerated settings, each named once (sim/core/enum_names.hpp): the parameter
// declarations (scenario_params.cpp) take their choices from these tables, the loader its
// values, and reports the names they write.
#pragma once

#include "models/failures/failure_spec.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/core/enum_names.hpp"

namespace goodput {

inline constexpr EnumName<RunMode> kRunModeNames[] = {{RunMode::Timed, "time"},
                                                      {RunMode::Snapshot, "snapshot"}};

inline constexpr EnumName<RepairSpec::Kind> kRepairKindNames[] = {
    {RepairSpec::Kind::Restart, "restart"},
    {RepairSpec::Kind::Fixed, "fixed"},
    {RepairSpec::Kind::Lognormal, "lognormal"},
    {RepairSpec::Kind::Mixture, "mixture"}};

inline constexpr EnumName<FailureClassSpec::Kind> kFailureKindNames[] = {
    {FailureClassSpec::Kind::Stop, "stop"}, {FailureClassSpec::Kind::Slow, "slow"}};

inline constexpr EnumName<RecoverySpec::SlowResponse> kSlowResponseNames[] = {
    {RecoverySpec::SlowResponse::Declared, "declared"},
    {RecoverySpec::SlowResponse::Tolerate, "tolerate"},
    {RecoverySpec::SlowResponse::Evict, "evict"}};

inline constexpr EnumName<FailureSpec::Model> kFailureModelNames[] = {
    {FailureSpec::Model::Statistical, "statistical"}, {FailureSpec::Model::Trace, "trace"}};

inline constexpr EnumName<TraceSpec::SeedsVary> kSeedsVaryNames[] = {
    {TraceSpec::SeedsVary::Window, "window"},
    {TraceSpec::SeedsVary::Placement, "placement"},
    {TraceSpec::SeedsVary::Both, "both"},
    {TraceSpec::SeedsVary::None, "none"}};

inline constexpr EnumName<CheckpointSpec::Policy> kCheckpointPolicyNames[] = {
    {CheckpointSpec::Policy::None, "none"},
    {CheckpointSpec::Policy::Fixed, "fixed"},
    {CheckpointSpec::Policy::Young, "young"},
    {CheckpointSpec::Policy::Daly, "daly"},
    {CheckpointSpec::Policy::AvailabilityOptimal, "availability_optimal"}};

inline constexpr EnumName<Recompute> kRecomputeNames[] = {
    {Recompute::None, "none"}, {Recompute::Selective, "selective"}, {Recompute::Full, "full"}};

inline constexpr EnumName<CostSpec::Model> kCostModelNames[] = {
    {CostSpec::Model::Auto, "auto"},
    {CostSpec::Model::Proportional, "proportional"},
    {CostSpec::Model::Iteration, "iteration"}};

inline constexpr EnumName<CostSpec::LocalBatch> kLocalBatchNames[] = {
    {CostSpec::LocalBatch::WholeSamples, "whole_samples"},
    {CostSpec::LocalBatch::WholeMicrobatches, "whole_microbatches"},
    {CostSpec::LocalBatch::Fractional, "fractional"}};

inline constexpr EnumName<CostSpec::CurveExtension> kCurveExtensionNames[] = {
    {CostSpec::CurveExtension::Linear, "linear"}, {CostSpec::CurveExtension::Flat, "flat"}};

// Two-valued settings held as a flag: the flag is the second name.
inline constexpr EnumName<bool> kBatchNames[] = {{false, "elastic"}, {true, "fixed"}};
inline constexpr EnumName<bool> kInterArrivalNames[] = {{false, "exponential"}, {true, "weibull"}};
inline constexpr EnumName<bool> kSaveModeNames[] = {{false, "blocking"}, {true, "async"}};

}  // namespace goodput
