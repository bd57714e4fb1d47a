#include "models/scenario/scenario_params.hpp"

#include "models/scenario/model_presets.hpp"
#include "models/scenario/scenario_enums.hpp"
#include "models/trace/trace.hpp"

namespace goodput::sections {

using namespace goodput::param;

const ParamSection& repair_mode() {
  static const ParamSection s{
      "repair mode",
      "One mode of a repair-time mixture: a lognormal.",
      {
          number("weight", "", 1.0, 0, kInf, "relative weight of this mode"),
          number("median_hours", "h", Json(), 0, kInf, "median repair time of this mode"),
          number("sigma", "", 0.0, 0, 5, "lognormal shape (0: every repair takes the median)"),
      }};
  return s;
}

const ParamSection& repair() {
  static const ParamSection s{
      "repair",
      "How long a failed component stays out.",
      {
          choice("kind", enum_choices(kRepairKindNames), "fixed",
                 "restart: no hardware out, back after /recovery/restart_s; fixed: `hours`; "
                 "lognormal: "
                 "`median_hours`, `sigma`; mixture: `modes`"),
          optional(number("hours", "h", Json(), 0, kInf, "repair time (kind fixed)")),
          optional(
              number("median_hours", "h", Json(), 0, kInf, "median repair time (kind lognormal)")),
          number("sigma", "", 0.0, 0, 5, "lognormal shape (kind lognormal)"),
          objects("modes", &repair_mode(), "mixture modes (kind mixture)"),
      }};
  return s;
}

const ParamSection& failure_class() {
  static const ParamSection s{
      "failure class",
      "One statistical failure class.",
      {
          text("name", Json(), "label used in reports"),
          choice("scope", enum_choices(kComponentKindNames), "gpu",
                 "component that fails; every GPU depending on it goes down (blast radius)"),
          number("mtbf_hours", "h", Json(), 1e-9, kInf,
                 "mean time between failures of ONE component of the scope"),
          object("repair", &repair(), "repair-time distribution"),
      }};
  return s;
}

const ParamSection& trace() {
  static const ParamSection s{
      "trace",
      "A failure trace to replay instead of the statistical model.",
      {
          text("path", Json(), "trace file, relative to the scenario file"),
          choice("format", trace::format_names(), "csv", "file format"),
          optional(integer("lanl_system", "", Json(), 0, 1e6,
                           "LANL system number to import (lanl-csv)")),
          number("time_offset_hours", "h", 0.0, -kInf, kInf, "subtracted from every trace time"),
          strings("restart_only_classes", Json::array(),
                  "fault classes that need only a restart (the job restarts; no repair wait)"),
      }};
  return s;
}

const ParamSection& failures() {
  static const ParamSection s{
      "failures",
      "Where failures come from.",
      {
          choice("model", enum_choices(kFailureModelNames), "statistical",
                 "statistical classes or trace replay"),
          choice("preset", {"llama3", "optimistic", "pessimistic", "ntp-paper", "none"}, "llama3",
                 "default class list (see `goodput describe failure-models`); ignored when "
                 "`classes` is given"),
          number("rate_scale", "", 1.0, 0, kInf, "multiplies every failure rate (0: no failures)"),
          number("failed_fraction", "", 0.0, 0, 1, "snapshot mode: share of GPUs down"),
          objects("classes", &failure_class(), "explicit class list (replaces the preset's)"),
          choice("inter_arrival", enum_choices(kInterArrivalNames), "exponential",
                 "inter-arrival law of each class's cluster-wide process"),
          number("weibull_shape", "", 0.7, 0.05, 10,
                 "Weibull shape (below 1: decreasing hazard, bursts)"),
          number("lemon_fraction", "", 0.0, 0, 1, "share of nodes that are lemons"),
          number("lemon_rate_multiplier", "", 5.0, 1, kInf,
                 "failure-rate multiplier of lemon nodes"),
          number("correlated_fraction", "", 0.0, 0, 1,
                 "share of node-scope events that also take the next nodes down"),
          integer("correlated_nodes", "nodes", 2, 2, 1024,
                  "nodes taken down by a correlated event"),
          number(
              "idle_rate_scale", "", 1.0, 0, 1,
              "failure rate of hardware outside the job's failure-free layout (idle GPUs of a "
              "domain, spare "
              "domains) relative to busy hardware; idle hardware often fails less (1: same rate)"),
          number(
              "lemon_heal_probability", "", 0.0, 0, 1,
              "chance that a repair cures a lemon node (it fails at the normal rate afterwards)"),
          number("repair_failure_probability", "", 0.0, 0, 1,
                 "chance that a repair does not fix the fault and is done again (another repair "
                 "time), repeatedly"),
          object("trace", &trace(), "trace replay settings (model trace)"),
      }};
  return s;
}

const ParamSection& cluster() {
  static const ParamSection s{
      "cluster",
      "The hardware: a preset shape, optionally overridden.",
      {
          choice(
              "preset", {"hgx-8", "nvl32", "gb200-nvl72", "custom"}, "gb200-nvl72",
              "hgx-8: 8-GPU nodes, NVLink inside the node; nvl32: 8 trays x 4 GPUs; gb200-nvl72: "
              "18 trays x 4 GPUs per rack-scale domain; custom: give every count"),
          optional(
              text("gpu", Json(), "GPU type (H100, H200, B200, GB200); default from the preset")),
          optional(integer("gpus_per_node", "GPUs", Json(), 1, 1024, "GPUs per node / tray")),
          optional(
              integer("nodes_per_domain", "nodes", Json(), 1, 4096, "nodes per NVLink domain")),
          optional(
              integer("nodes_per_rack", "nodes", Json(), 1, 4096, "nodes per rack / power shelf")),
          optional(integer("nodes_per_leaf", "nodes", Json(), 1, 4096,
                           "nodes per scale-out leaf switch")),
          optional(integer("domains", "domains", Json(), 1, 1e7,
                           "total domains; default: what the job needs plus spare_domains")),
          integer("spare_domains", "domains", 0, 0, 1e7,
                  "domains beyond the job's needs (when domains is not given)"),
      }};
  return s;
}

const ParamSection& model() {
  static const ParamSection s{
      "model",
      "Transformer shape (for the cost model and calibration).",
      {
          optional(choice("preset", model_preset_names(), Json(),
                          "a named shape (ntp-paper-480b, llama3-8b/70b/405b); keys given beside "
                          "it override it")),
          integer("hidden", "", Json(), 1, 1e6, "hidden size"),
          integer("heads", "", Json(), 1, 1e5, "attention heads"),
          optional(integer("kv_heads", "", Json(), 1, 1e5, "key/value heads (default: heads)")),
          integer("ffn", "", Json(), 1, 1e7, "MLP inner width"),
          integer("layers", "", Json(), 1, 1e5, "transformer layers"),
          integer("seq_len", "tokens", Json(), 1, 1e8, "sequence length"),
          integer("vocab", "tokens", 128256, 1, 1e8, "vocabulary size"),
          boolean("gated_mlp", false, "gated MLP (SwiGLU: the up projection has 2*ffn columns)"),
      }};
  return s;
}

const ParamSection& job() {
  static const ParamSection s{
      "job",
      "The training job's parallel layout.",
      {
          integer("tp", "GPUs", Json(), 1, 4096,
                  "tensor-parallel degree (a TP group lives inside one domain)"),
          integer("pp", "stages", Json(), 1, 4096, "pipeline stages per replica"),
          integer("dp", "replicas", Json(), 1, 1e7, "data-parallel replicas"),
          number("step_s", "s", 10.0, 1e-3, 1e6, "iteration time of the healthy job"),
          integer("microbatches", "", 8, 1, 1e6, "micro-batches per replica per step"),
          choice("batch", enum_choices(kBatchNames), "elastic",
                 "elastic: the job may train on fewer samples per step (fewer or degraded "
                 "replicas); fixed: the "
                 "global batch is kept — the job pauses (WAITING_FOR_CAPACITY) whenever it would "
                 "fall short, "
                 "dp_drop's accumulate keeps it with more micro-batches, spare domains stand in "
                 "for damaged "
                 "groups, and a rejoining replica's swap-in and state copy count as recovery"),
          integer("micro_batch", "sequences", 1, 1, 1e6, "sequences per micro-batch"),
          integer("virtual_stages", "chunks", 1, 1, 1024,
                  "model chunks per pipeline stage: 1 = 1F1B, v > 1 = interleaved 1F1B (bubble "
                  "(pp-1)/v)"),
          choice("recompute", enum_choices(kRecomputeNames), "none",
                 "activation recomputation in backward: selective = the attention core, full = the "
                 "whole layer"),
          boolean("sequence_parallel", true,
                  "TP collectives as reduce-scatter + all-gather, element-wise work split over the "
                  "TP ranks"),
          object("model", &model(), "model shape (optional for the proportional cost model)"),
      }};
  return s;
}

const ParamSection& recovery() {
  static const ParamSection s{
      "recovery",
      "The price list of recovery mechanisms: every strategy pays the same price for the same "
      "physical "
      "action (the report lists what each strategy paid and how often; `goodput sensitivity` moves "
      "them).",
      {
          number("detection_s", "s", 120.0, 0, kInf,
                 "notice a failure: collective time-out or health check. Paid on every unplanned "
                 "interruption. "
                 "Source: public reports put detection at minutes "
                 "(shared/reference/failure-rates.md)"),
          number("restart_s", "s", 600.0, 0, kInf,
                 "restart the whole job: reschedule, start every process, rendezvous, set up "
                 "communicators "
                 "(the checkpoint load, /checkpoint/load_s, comes after it). Source: minutes per "
                 "interruption "
                 "in public reports (failure-rates.md)"),
          number("communicator_rebuild_s", "s", 60.0, 0, kInf,
                 "re-form the collective communicators when ranks leave or join while the "
                 "processes stay up "
                 "(a replica dropped or rejoining, a TP group re-formed, a spare attached). "
                 "Assumption: "
                 "communicator set-up at thousands of ranks takes tens of seconds"),
          number("spare_swap_s", "s", 180.0, 0, kInf,
                 "attach hardware the job was not using (a warm spare node or domain, repaired "
                 "hardware a "
                 "replica rejoins on): rank reassignment, health check, rendezvous. Source: a "
                 "hot-spare swap "
                 "takes a few minutes (failure-rates.md)"),
          optional(number(
              "state_copy_s", "s", Json(), 0, kInf,
              "copy weights and optimizer state from a data-parallel peer to GPUs that have none "
              "(a re-formed group's new GPU, a spare, a rejoining replica). Default: derived, one "
              "GPU's state (bf16 weights + fp32 master and Adam moments over the DP shard) over "
              "its scale-out link (/cost/scaleout_gbps), the GPUs copying in parallel; 0 under "
              "the proportional cost model (no model shape)")),
          optional(number(
              "ntp_reshard_s", "s", Json(), 0, kInf,
              "NTP in-place reshard: redistribute a stage's weights and optimizer state over the "
              "surviving (or regained) ranks of a TP group. Default: derived, the busiest rank's "
              "bytes over NVLink (/cost/nvlink_gbps); 0 under the proportional cost model")),
      }};
  return s;
}

const ParamSection& checkpoint() {
  static const ParamSection s{
      "checkpoint",
      "Checkpointing, available to every strategy.",
      {
          choice("interval", enum_choices(kCheckpointPolicyNames), "daly",
                 "fixed: interval_s; young: sqrt(2 C M); daly: Daly's higher-order formula; "
                 "availability_optimal: minimises Daly's expected run time including restarts"),
          number("interval_s", "s", 3600.0, 1, kInf, "interval when `interval` is fixed"),
          number("save_s", "s", 60.0, 0, kInf, "time to write a checkpoint"),
          choice("save_mode", enum_choices(kSaveModeNames), "blocking",
                 "blocking: training stops for save_s; async: stops for async_blocking_s, durable "
                 "after save_s"),
          number("async_blocking_s", "s", 5.0, 0, kInf,
                 "training pause of an async save (snapshot to host memory)"),
          number("load_s", "s", 300.0, 0, kInf, "time to load a checkpoint on restart"),
      }};
  return s;
}

const ParamSection& cost() {
  static const ParamSection s{
      "cost",
      "How fast a replica runs at a reduced TP degree.",
      {
          choice("model", enum_choices(kCostModelNames), "auto",
                 "proportional: throughput = degree / tp, no overheads; iteration: per-layer times "
                 "from a "
                 "calibration profile, TP collectives, the exact (interleaved) 1F1B pipeline "
                 "schedule, DP "
                 "gradient sync, reshard (see `goodput explain-step`); auto: iteration when "
                 "/job/model is given"),
          optional(text("profile", Json(),
                        "calibration profile (default: calibrate/profiles/<gpu>-analytical.json)")),
          boolean("interpolate", false,
                  "accept a profile that lacks this model shape or a reachable TP degree (its fit "
                  "answers; report.json lists the degrees)"),
          number(
              "nvlink_gbps", "GB/s", 0.0, 0, kInf,
              "NVLink bandwidth per GPU, one direction (0: 450 for H100/H200, 900 for B200/GB200)"),
          number("scaleout_gbps", "GB/s", 50.0, 1e-3, kInf, "scale-out network bandwidth per GPU"),
          number("dp_overlap", "", 0.9, 0, 1,
                 "share of the DP gradient all-reduce hidden behind backward"),
          number("reshard_overlap", "", 0.8, 0, 1,
                 "share of the NTP gradient reshard hidden behind backward"),
          boolean("partial_microbatch", true,
                  "a degraded replica may shorten its last micro-batch (fewer tokens) to fit the "
                  "healthy step; "
                  "false: whole micro-batches only"),
          numbers("curve_power", "x TDP", Json::array({1.0, 1.1, 1.2}), 0.1, 10,
                  "power multipliers of the power -> speed curve"),
          numbers(
              "curve_speed", "x", Json::array({1.0, 1.1 * 0.972, 1.2 * 0.935}), 0.1, 10,
              "speed multipliers at those powers (default: the NTP paper's TP30 perf/W figures)"),
      }};
  return s;
}

const ParamSection& report() {
  static const ParamSection s{
      "report",
      "What reports add beyond the Goodput figures.",
      {
          numbers("failed_gpu_thresholds", "", Json::array({0.001}), 0, 1,
                  "cluster health: for each fraction x, the share of time with more than x of all "
                  "GPUs failed"),
          number("train_hours", "h", 0.0, 0, kInf,
                 "training the job needs on the healthy, failure-free cluster; > 0 adds each "
                 "strategy's time to train (train_hours / Goodput) and GPU-hours (x every GPU of "
                 "the cluster, spares included), and the run to completion: per run, when "
                 "progress first reaches it (mean, p50, p90, p99 over runs; set horizon_hours "
                 "long enough for the runs to finish)"),
          number("train_steps", "steps", 0.0, 0, kInf,
                 "the same target in training steps of the healthy job (x its step time from "
                 "the cost model); set one of train_hours, train_steps, train_tokens"),
          number("train_tokens", "tokens", 0.0, 0, kInf,
                 "the same target in tokens: train_tokens / (dp x microbatches x micro_batch x "
                 "/job/model's seq_len) steps; needs /job/model"),
          number("gpu_hour_price", "per GPU-hour", 0.0, 0, kInf,
                 "price of one GPU-hour (any currency); > 0 with train_hours adds the cost to "
                 "train; set it or gpu_capex, not both"),
          number("gpu_capex", "per GPU", 0.0, 0, kInf,
                 "purchase price of one GPU, its share of server, network and facility "
                 "included; > 0 prices a GPU-hour as gpu_capex / (gpu_lifetime_years x 8766 h) "
                 "instead of gpu_hour_price"),
          number("gpu_lifetime_years", "years", 5.0, 0.1, 100,
                 "years over which gpu_capex is written off (straight line, fully used)"),
          optional(number("spare_gpu_hour_price", "per GPU-hour", Json(), 0, kInf,
                          "price of one GPU-hour of the spare domains' hardware (default: what "
                          "any GPU-hour costs); needs gpu_hour_price or gpu_capex")),
          number("gpu_power_kw", "kW", 0.0, 0, 100,
                 "power of one GPU at work, its share of the server included; > 0 adds each "
                 "strategy's energy to the report (GPUs the job holds at this power, idle "
                 "healthy GPUs at idle_power_fraction of it, failed GPUs at none, boost's extra "
                 "on top; x pue)"),
          number("idle_power_fraction", "", 0.3, 0, 1,
                 "share of gpu_power_kw an idle healthy GPU (a spare) draws"),
          number("pue", "", 1.2, 1, 10, "power usage effectiveness: facility / IT energy"),
          number("energy_price_per_kwh", "per kWh", 0.0, 0, kInf,
                 "price of one kWh at the facility meter (any currency, the same as "
                 "gpu_hour_price); > 0 with gpu_power_kw adds the energy cost"),
          optional(text("baseline", Json(),
                        "strategy every other is compared with, paired over the same failures "
                        "(default: checkpoint_restart when it is compared, else none)")),
      }};
  return s;
}

const ParamSection& strategies() {
  static const ParamSection s{"strategies", "Strategies to compare: name -> parameters.", {}};
  return s;
}

const ParamSection& scenario() {
  static const ParamSection s{
      "scenario",
      "A goodput scenario file.",
      {
          text("name", "", "short name used in reports"),
          text("description", "", "one paragraph for the report"),
          choice("mode", enum_choices(kRunModeNames), "time",
                 "time: simulate a wall-clock horizon; snapshot: a fixed fraction of GPUs down, "
                 "placed at "
                 "random (one placement per seed), steady-state throughput per strategy"),
          number("horizon_hours", "h", 720.0, 1e-3, 1e6, "simulated wall-clock time"),
          integer("seeds", "runs", 10, 1, 1e6, "Monte Carlo runs"),
          integer("seed", "", 1, 0, 9e15,
                  "base seed; run i uses streams derived from (seed, i, component)"),
          object("cluster", &cluster(), "hardware"),
          object("job", &job(), "training job"),
          object("failures", &failures(), "failure model"),
          object("recovery", &recovery(), "recovery costs"),
          object("checkpoint", &checkpoint(), "checkpointing"),
          object("cost", &cost(), "iteration-time cost model"),
          object("strategies", &strategies(), "strategies to compare (name -> parameters)"),
          object("report", &report(), "report settings"),
      }};
  return s;
}

}  // namespace goodput::sections
