#include "models/scenario/scenario_params.hpp"

#include "models/failures/failure_presets.hpp"
#include "models/scenario/model_preset_table.hpp"
#include "models/scenario/model_presets.hpp"
#include "models/scenario/scenario_enums.hpp"
#include "models/topology/cluster_presets.hpp"
#include "models/trace/trace.hpp"

namespace goodput::sections {

using namespace goodput::param;

const BoundSection<RepairMode>& repair_mode_fields() {
  static const BoundSection<RepairMode> s{
      "repair mode",
      "One mode of a repair-time mixture: a lognormal.",
      {
          field::number(&RepairMode::weight, "weight", "", 0, kInf, "relative weight of this mode"),
          field::required(field::number(&RepairMode::median_hours, "median_hours", "h", 0, kInf,
                                        "median repair time of this mode")),
          field::number(&RepairMode::sigma, "sigma", "", 0, 5,
                        "lognormal shape (0: every repair takes the median)"),
      }};
  return s;
}

const ParamSection& repair_mode() {
  return repair_mode_fields().section();
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

const BoundSection<FailureClassSpec>& failure_class_fields() {
  using C = FailureClassSpec;
  static const BoundSection<C> s{
      "failure class",
      "One statistical failure class.",
      {
          field::required(field::text(&C::name, "name", "label used in reports")),
          field::choice(&C::scope, kComponentKindNames, "scope",
                        "component that fails; every GPU depending on it goes down (blast radius)"),
          field::required(
              field::number(&C::mtbf_hours, "mtbf_hours", "h", 1e-9, kInf,
                            "mean time between failures of ONE component of the scope")),
          field::declared<C>(object("repair", &repair(),
                                    "repair-time distribution (kind slow: how long the slowness "
                                    "lasts when nothing is done about it)")),
          field::choice(&C::kind, kFailureKindNames, "kind",
                        "stop: the component's GPUs go down (fail-stop); slow: they keep running "
                        "with their compute `slowdown` times slower (fail-slow: throttling, a "
                        "degraded link), pacing everything that synchronises with them until a "
                        "strategy acts (each strategy's response: README 'Fail-slow')"),
          field::number(&C::slowdown, "slowdown", "x", 1, 100,
                        "kind slow: how many times longer the slow GPUs' compute takes (1.5: a "
                        "step's compute on them takes 50% longer)"),
          field::number(&C::slowdown_max, "slowdown_max", "x", 0, 100,
                        "kind slow: draw each fault's slowdown uniformly in [slowdown, "
                        "slowdown_max] (0: every fault slows by `slowdown`)"),
          field::number(&C::detection_s, "detection_s", "s", 0, 1e9,
                        "kind slow: time until the slowness is detected and a strategy can act "
                        "(straggler detectors compare iteration times over minutes, e.g. FALCON, "
                        "arXiv 2410.12588; 600 s is an assumption)"),
      }};
  return s;
}

const ParamSection& failure_class() {
  return failure_class_fields().section();
}

const BoundSection<TraceSpec>& trace_fields() {
  using T = TraceSpec;
  static const BoundSection<T> s{
      "trace",
      "A failure trace to replay instead of the statistical model. Operator logs (formats "
      "iso-events-csv, slurm-events, k8s-events-json) name hosts: `hosts` or `host_pattern` maps "
      "them to components; `goodput import` converts any format to goodput's CSV "
      "(models/trace/README.md).",
      {
          field::declared<T>(text("path", Json(), "trace file, relative to the scenario file")),
          field::choice(&T::format, trace::format_names(), "format", "file format"),
          field::optional(field::integer(&T::lanl_system, "lanl_system", "", 0, 1e6,
                                         "LANL system number to import (lanl-csv)")),
          field::number(&T::time_offset_hours, "time_offset_hours", "h", -kInf, kInf,
                        "subtracted from every trace time"),
          field::strings(&T::restart_only_classes, "restart_only_classes",
                         "fault classes that need only a restart (the job restarts; no repair "
                         "wait)"),
          field::choice(
              &T::seeds_vary, kSeedsVaryNames, "seeds_vary",
              "what a replay's seeds vary. window: each seed replays horizon_hours of the trace "
              "from an offset drawn uniformly in [0, trace span - horizon_hours] (a trace no "
              "longer than the run has one window); placement: each seed maps the trace's nodes "
              "(and domains, racks, leaves, rows) onto the cluster's by a random permutation; "
              "both; none: every seed replays the same faults. When nothing varies the replay is "
              "deterministic: reports show one run, no CI and no significance"),
          field::declared<T>(text("hosts", "",
                                  "operator logs: a host,component CSV mapping host names to "
                                  "components (e.g. gpu-node-017,node/16), relative to the "
                                  "scenario file")),
          field::text(&T::host_pattern, "host_pattern",
                      "operator logs: a regular expression matching whole host names, its one "
                      "capture group a node index (e.g. `gpu-node-0*([0-9]+)`); hosts not in "
                      "`hosts` are node/(index + host_index_offset)"),
          field::integer(&T::host_index_offset, "host_index_offset", "", -1e6, 1e6,
                         "operator logs: added to host_pattern's node index (e.g. -1 when "
                         "hosts count from 1)"),
          field::text(&T::time_zone, "time_zone",
                      "operator logs: zone of timestamps that give none, Z or +HH:MM (default "
                      "UTC)"),
          field::text(&T::start, "start",
                      "operator logs: ISO 8601 time that trace hours count from (default: the "
                      "earliest event)"),
      }};
  return s;
}

const ParamSection& trace() {
  return trace_fields().section();
}

namespace {
// A row of FailureSpec, filled into Scenario::failures.
BoundParam<Scenario> in_failures(BoundParam<FailureSpec> p) {
  return field::within(&Scenario::failures, std::move(p));
}
}  // namespace

const BoundSection<Scenario>& failures_fields() {
  using F = FailureSpec;
  static const BoundSection<Scenario> s{
      "failures",
      "Where failures come from.",
      {
          in_failures(field::choice(&F::model, kFailureModelNames, "model",
                                    "statistical classes or trace replay")),
          in_failures(field::choice(&F::preset, failure_preset_names(), "preset",
                                    "default class list (see `goodput describe failure-models`); "
                                    "ignored when `classes` is given")),
          in_failures(field::number(&F::rate_scale, "rate_scale", "", 0, kInf,
                                    "multiplies every failure rate (0: no failures)")),
          in_failures(field::number(
              &F::repair_scale, "repair_scale", "", 0.01, 100,
              "multiplies every drawn repair time of the statistical model (restart-only classes "
              "are no repair; trace replay keeps the trace's times): the plausible-range axis of "
              "repair times, whose public figures vary widely (failure-rates.md)")),
          field::number(&Scenario::failed_fraction, "failed_fraction", "", 0, 1,
                        "snapshot mode: share of GPUs down"),
          field::declared<Scenario>(
              objects("classes", &failure_class(), "explicit class list (replaces the preset's)")),
          in_failures(field::choice(&F::weibull, kInterArrivalNames, "inter_arrival",
                                    "inter-arrival law of each class's cluster-wide process")),
          in_failures(field::number(&F::weibull_shape, "weibull_shape", "", 0.05, 10,
                                    "Weibull shape (below 1: decreasing hazard, bursts)")),
          in_failures(field::number(&F::lemon_fraction, "lemon_fraction", "", 0, 1,
                                    "share of nodes that are lemons")),
          in_failures(field::number(&F::lemon_rate_multiplier, "lemon_rate_multiplier", "", 1, kInf,
                                    "failure-rate multiplier of lemon nodes")),
          in_failures(field::number(&F::correlated_fraction, "correlated_fraction", "", 0, 1,
                                    "share of node-scope events that also take the next nodes "
                                    "down")),
          in_failures(field::integer(&F::correlated_nodes, "correlated_nodes", "nodes", 2, 1024,
                                     "nodes taken down by a correlated event")),
          in_failures(field::number(
              &F::idle_rate_scale, "idle_rate_scale", "", 0, 1,
              "failure rate of hardware outside the job's failure-free layout (idle GPUs of a "
              "domain, spare domains) relative to busy hardware; idle hardware often fails less "
              "(1: same rate)")),
          in_failures(field::number(
              &F::lemon_heal_probability, "lemon_heal_probability", "", 0, 1,
              "chance that a repair cures a lemon node (it fails at the normal rate afterwards)")),
          in_failures(field::number(&F::repair_failure_probability, "repair_failure_probability",
                                    "", 0, 1,
                                    "chance that a repair does not fix the fault and is done "
                                    "again (another repair time), repeatedly")),
          field::declared<Scenario>(
              object("trace", &trace(), "trace replay settings (model trace)")),
      }};
  return s;
}

const ParamSection& failures() {
  return failures_fields().section();
}

namespace {
BoundParam<Scenario> in_cluster(BoundParam<ClusterShape> p) {
  return field::within(&Scenario::cluster, std::move(p));
}

ParamDecl cluster_preset_decl() {
  std::vector<std::string> names;
  std::string doc;
  for (const auto& p : kClusterPresets) {
    names.emplace_back(p.name);
    doc += std::string(p.name) + ": " + p.doc + "; ";
  }
  names.emplace_back(kCustomClusterPreset);
  doc += std::string(kCustomClusterPreset) + ": give every count";
  return choice("preset", names, "gb200-nvl72", doc);
}
}  // namespace

namespace {
// A number above `min`, not equal to it.
template <class S>
BoundParam<S> above(BoundParam<S> p) {
  p.decl.min_exclusive = true;
  return p;
}
}  // namespace

// The catalogue's keys (calibrate/profile/gpu_catalogue.hpp): a scenario's own GPU, and the
// rows `goodput describe hardware` prints for every entry.
const BoundSection<calib::GpuSpec>& gpu_spec_fields() {
  using G = calib::GpuSpec;
  static const BoundSection<G> s{
      "gpu_spec",
      "A GPU of the scenario's own, with the GPU catalogue's keys (`goodput describe hardware`); "
      "used instead of a catalogue entry. Figures per GPU, dense (no 2:4 sparsity).",
      {
          field::required(field::text(&G::name, "name",
                                      "the GPU's name (what /cluster/gpu says and reports show); "
                                      "not a catalogue entry's")),
          field::text(&G::product, "product",
                      "full product name; the analytical profile names its device after it, "
                      "\"... (datasheet)\" (default: name)"),
          field::required(above(
              field::number(&G::bf16_dense_tflops, "bf16_dense_tflops", "TFLOP/s", 0, 1e6,
                            "dense BF16 tensor-core peak: the analytical profile's GEMM ceiling"))),
          field::number(&G::fp8_dense_tflops, "fp8_dense_tflops", "TFLOP/s", 0, 1e6,
                        "dense FP8 tensor-core peak (0: no FP8, as A100); recorded, not used by "
                        "the step model yet"),
          field::required(above(field::number(
              &G::hbm_bandwidth_gbps, "hbm_bandwidth_gbps", "GB/s", 0, 1e6,
              "HBM bandwidth: the analytical profile's copy ceiling (memory-bound work at 80 % "
              "of it)"))),
          field::required(above(field::number(&G::hbm_capacity_gb, "hbm_capacity_gb", "GB", 0, 1e5,
                                              "HBM capacity (the profile's device memory)"))),
          field::required(above(field::number(
              &G::nvlink_gbps, "nvlink_gbps", "GB/s", 0, 1e5,
              "NVLink bandwidth per GPU, one direction (half the datasheet's bidirectional "
              "figure): TP collectives and the NTP reshard; /cost/nvlink_gbps overrides it"))),
          field::integer(&G::sm_count, "sm_count", "SMs", 0, 1e5,
                         "streaming multiprocessors (0: not known)"),
          field::text(&G::compute_capability, "compute_capability",
                      "CUDA compute capability, e.g. \"9.0\""),
          field::number(&G::nominal_power_w, "nominal_power_w", "W", 0, 1e5,
                        "TDP of the configuration these figures assume: the default of "
                        "/cluster/gpu_nominal_power_w (0: none declared)"),
          field::number(&G::max_power_w, "max_power_w", "W", 0, 1e5,
                        "rated maximum board power: the default of /cluster/gpu_max_power_w (0: "
                        "none declared)"),
          field::number(&G::attention_fwd_efficiency, "attention_fwd_efficiency", "", 0, 1,
                        "share of bf16_dense_tflops causal flash attention reaches forward, in "
                        "goodput's FLOP count (2 s^2 d per head); 0: not declared, attention is "
                        "priced as GEMMs on the analytical efficiency curve"),
          field::number(&G::attention_bwd_efficiency, "attention_bwd_efficiency", "", 0, 1,
                        "the same for the backward pass (its FLOPs counted as 2x the forward's; "
                        "FlashAttention's benchmarks count 2.5x: scale their figure by 0.8)"),
          field::text(&G::peaks_source, "peaks_source",
                      "source of bf16_dense_tflops and hbm_bandwidth_gbps (the analytical "
                      "profile's datasheet citation); default: this scenario's gpu_spec"),
          field::text(&G::spec_source, "spec_source",
                      "source of fp8_dense_tflops, hbm_capacity_gb, sm_count, compute_capability"),
          field::text(&G::nvlink_source, "nvlink_source", "source of nvlink_gbps"),
          field::text(&G::power_source, "power_source",
                      "source of nominal_power_w and max_power_w"),
          field::text(&G::attention_source, "attention_source",
                      "source of attention_fwd_efficiency and attention_bwd_efficiency"),
      }};
  return s;
}

const ParamSection& gpu_spec() {
  return gpu_spec_fields().section();
}

// The counts default to the preset's (the loader sets the shape first; given keys override).
const BoundSection<Scenario>& cluster_fields() {
  using C = ClusterShape;
  static const BoundSection<Scenario> s{
      "cluster",
      "The hardware: a preset shape, optionally overridden.",
      {
          field::declared<Scenario>(cluster_preset_decl()),
          field::optional(in_cluster(field::text(
              &C::gpu_type, "gpu",
              "GPU type: an entry of the GPU catalogue (" + calib::gpu_names_text() +
                  "; their figures: `goodput describe hardware`), or gpu_spec's name. Default: "
                  "gpu_spec's name if given, else the preset's"))),
          field::declared<Scenario>(optional(
              object("gpu_spec", &gpu_spec(),
                     "the scenario's own GPU, with the catalogue's keys, instead of an entry"))),
          field::optional(in_cluster(field::integer(&C::gpus_per_node, "gpus_per_node", "GPUs", 1,
                                                    1024, "GPUs per node / tray"))),
          field::optional(in_cluster(field::integer(&C::nodes_per_domain, "nodes_per_domain",
                                                    "nodes", 1, 4096, "nodes per NVLink domain"))),
          field::optional(in_cluster(field::integer(&C::nodes_per_rack, "nodes_per_rack", "nodes",
                                                    1, 4096, "nodes per rack / power shelf"))),
          field::optional(in_cluster(field::integer(&C::nodes_per_leaf, "nodes_per_leaf", "nodes",
                                                    1, 4096, "nodes per scale-out leaf switch"))),
          in_cluster(field::integer(
              &C::racks_per_row, "racks_per_row", "racks", 1, 1e6,
              "racks per row: the racks that share a power distribution (busway, PDU) and a "
              "cooling loop, the blast radius of a failure class of scope row (assumption: 8, a "
              "typical row of liquid-cooled racks behind one in-row CDU)")),
          field::declared<Scenario>(
              optional(integer("domains", "domains", Json(), 1, 1e7,
                               "total domains; default: what the job needs plus spare_domains"))),
          field::integer(&Scenario::spare_domains, "spare_domains", "domains", 0, 1e7,
                         "domains beyond the job's needs (when domains is not given)"),
          field::optional(field::number(
              &Scenario::gpu_nominal_power_w, "gpu_nominal_power_w", "W", 1, 1e5,
              "power a GPU of the job draws at work: the 1x of /cost/curve_power and of "
              "ntp_boost's max_power. Default: the GPU's nominal_power_w, its TDP (H100, H200: "
              "700; B200: 1000, HGX; GB200: 1200; A100-80GB: 400; `goodput describe hardware`)")),
          field::optional(field::number(
              &Scenario::gpu_max_power_w, "gpu_max_power_w", "W", 1, 1e5,
              "rated maximum board power of one GPU: no boost exceeds it (ntp_boost's multiplier "
              "is capped at gpu_max_power_w / gpu_nominal_power_w). Default: the GPU's "
              "max_power_w (A100-80GB, H100, H200, GB200: their TDP, no headroom; B200: 1200 W "
              "as in GB200, 1.2x its 1000 W HGX TDP)")),
          field::number(&Scenario::domain_power_budget_kw, "domain_power_budget_kw", "kW", 0, 1e6,
                        "GPU power budget of one NVLink domain (the sum of its GPUs' power; "
                        "failed GPUs draw none, every other GPU of the domain but a boosted "
                        "group's is counted at its nominal power); caps ntp_boost's power in a "
                        "degraded domain. 0: no budget beyond each GPU's board power"),
      }};
  return s;
}

const ParamSection& cluster() {
  return cluster_fields().section();
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
          integer("vocab", "tokens", kDefaultVocab, 1, 1e8, "vocabulary size"),
          boolean("gated_mlp", false, "gated MLP (SwiGLU: the up projection has 2*ffn columns)"),
          boolean("rotary", true,
                  "rotary position embedding (RoPE) applied to q and k in every layer (a "
                  "memory-bound kernel); false for learned absolute positions (GPT-3)"),
          boolean("dropout", false,
                  "dropout after attention and the MLP (two memory-bound kernels per layer); "
                  "Llama 3 pre-training uses none"),
      }};
  return s;
}

const BoundSection<JobSpec>& job_fields() {
  using J = JobSpec;
  static const BoundSection<J> s{
      "job",
      "The training job's parallel layout.",
      {
          field::required(
              field::integer(&J::tp, "tp", "GPUs", 1, 4096,
                             "tensor-parallel degree (a TP group lives inside one domain)")),
          field::required(
              field::integer(&J::pp, "pp", "stages", 1, 4096, "pipeline stages per replica")),
          field::required(
              field::integer(&J::dp, "dp", "replicas", 1, 1e7, "data-parallel replicas")),
          field::integer(&J::cp, "cp", "TP groups", 1, 4096,
                         "context-parallel degree: each pipeline stage's sequences are split over "
                         "cp TP groups that exchange keys and values in a ring (ring attention, "
                         "as Megatron-LM's --context-parallel-size); a replica is tp x cp x pp "
                         "GPUs, and a degraded group slows its whole stage"),
          field::number(&J::step_s, "step_s", "s", 1e-3, 1e6, "iteration time of the healthy job"),
          field::integer(&J::microbatches, "microbatches", "", 1, 1e6,
                         "micro-batches per replica per step"),
          field::choice(
              &J::fixed_batch, kBatchNames, "batch",
              "elastic: the job may train on fewer samples per step (fewer or degraded "
              "replicas); fixed: the global batch is kept, counted in whole samples (a shortfall "
              "below one sample is none) — the job pauses (WAITING_FOR_CAPACITY) whenever it "
              "would fall short, dp_drop's accumulate keeps it with more micro-batches, spare "
              "domains stand in for damaged groups or, for ntp and ntp_boost, host extra "
              "replicas that make up the sample shortfall, and waiting only for rejoining "
              "replicas' swap-in and state copy counts as recovery (README: per strategy)"),
          field::integer(&J::micro_batch, "micro_batch", "sequences", 1, 1e6,
                         "sequences per micro-batch"),
          field::integer(&J::virtual_stages, "virtual_stages", "chunks", 1, 1024,
                         "model chunks per pipeline stage: 1 = 1F1B, v > 1 = interleaved 1F1B "
                         "(bubble (pp-1)/v)"),
          field::choice(&J::recompute, kRecomputeNames, "recompute",
                        "activation recomputation in backward: selective = the attention core, "
                        "full = the whole layer"),
          field::boolean(&J::sequence_parallel, "sequence_parallel",
                         "TP collectives as reduce-scatter + all-gather, element-wise work split "
                         "over the TP ranks"),
          field::optional(field::integers(
              &J::stage_layers, "stage_layers", "layers", 1, 1e5,
              "whole transformer layers of each pipeline stage, pp entries summing to "
              "/job/model/layers; needed when the layers do not split evenly (e.g. Llama 3 "
              "405B on PP16: 7 on the first and last stages, which hold the embedding and the "
              "LM head, 8 on the others); default: layers / pp each")),
          field::declared<J>(
              object("model", &model(), "model shape (optional for the proportional cost model)")),
      }};
  return s;
}

const ParamSection& job() {
  return job_fields().section();
}

const BoundSection<RecoverySpec>& recovery_fields() {
  using R = RecoverySpec;
  static const BoundSection<R> s{
      "recovery",
      "The price list of recovery mechanisms: every strategy pays the same price for the same "
      "physical action (the report lists what each strategy paid and how often; `goodput "
      "sensitivity` moves them).",
      {
          field::number(&R::detection_s, "detection_s", "s", 0, kInf,
                        "notice a failure: collective time-out or health check. Paid on every "
                        "unplanned interruption. Source: public reports put detection at minutes "
                        "(shared/reference/failure-rates.md)"),
          field::number(&R::restart_s, "restart_s", "s", 0, kInf,
                        "restart the whole job: reschedule, start every process, rendezvous, set "
                        "up communicators (the checkpoint load, /checkpoint/load_s, comes after "
                        "it). Source: minutes per interruption in public reports "
                        "(failure-rates.md)"),
          field::number(&R::communicator_rebuild_s, "communicator_rebuild_s", "s", 0, kInf,
                        "re-form the collective communicators when ranks leave or join while the "
                        "processes stay up (a replica dropped or rejoining, a TP group re-formed, "
                        "a spare attached). Assumption: communicator set-up at thousands of ranks "
                        "takes tens of seconds"),
          field::number(&R::spare_swap_s, "spare_swap_s", "s", 0, kInf,
                        "attach hardware the job was not using (a warm spare node or domain, "
                        "repaired hardware a replica rejoins on): rank reassignment, health check, "
                        "rendezvous. Source: a hot-spare swap takes a few minutes "
                        "(failure-rates.md)"),
          field::optional(field::number(
              &R::state_copy_s, "state_copy_s", "s", 0, kInf,
              "copy weights and optimizer state from a data-parallel peer to GPUs that have none "
              "(a re-formed group's new GPU, a spare, a rejoining replica). Default: derived, one "
              "GPU's state (bf16 weights + fp32 master and Adam moments over the DP shard) over "
              "its scale-out link (/cost/scaleout_gbps), the GPUs copying in parallel; 0 under "
              "the proportional cost model (no model shape)")),
          field::optional(field::number(
              &R::ntp_reshard_s, "ntp_reshard_s", "s", 0, kInf,
              "NTP in-place reshard: redistribute a stage's weights and optimizer state over the "
              "surviving (or regained) ranks of a TP group. Paid once per TP group whose degree "
              "changes; the groups reshard in parallel, each over its own NVLink domain (the "
              "stall is the slowest). Default: derived, the busiest rank's bytes over NVLink "
              "(/cost/nvlink_gbps); 0 under the proportional cost model")),
          field::number(&R::ntp_reconfig_s, "ntp_reconfig_s", "s", 0, kInf,
                        "NTP in-place TP reconfiguration: shrink or re-create the communicator of "
                        "a TP group at its new degree inside its NVLink domain and re-form the "
                        "stage's sharded modules and buffers for it. Paid once per TP group whose "
                        "degree changes, the groups in parallel (the stall pays it once), on top "
                        "of the job-wide communicator rebuild. Assumption: seconds; NCCL 2.27's "
                        "ncclCommShrink re-forms a communicator without the full "
                        "ncclCommInitRank bootstrap, and a TP group is at most one NVLink "
                        "domain, whereas a full init at 96k ranks takes ~265 s (NCCLX, "
                        "arXiv:2510.20171); README, price list"),
          field::optional(field::number(
              &R::rejoin_s, "rejoin_s", "s", 0, kInf,
              "a replica that was dropped joins the job again: the communicator rebuild that "
              "admits its ranks, after its hardware is attached and its state copied (in the "
              "background). Paid once per rejoining replica; replicas joining the same rebuild "
              "share its stall. Default: /recovery/communicator_rebuild_s (the same physical "
              "action)")),
          field::choice(&R::slow_response, kSlowResponseNames, "slow_response",
                        "what strategies do about a slow component (a failure class of kind "
                        "slow) once it is detected: declared, each strategy's own response "
                        "(dp_drop, hot_spares, checkpoint_restart and peer_memory treat it as "
                        "failed; ntp and ntp_boost run its TP group at a lower degree when that "
                        "keeps more of the replica's batch than running slow, ntp_boost first "
                        "boosting it when power can make up the slowness); tolerate: every "
                        "strategy keeps it (the job paced by it, ntp's cutting the slow "
                        "replica's batch); evict: every strategy treats it as failed"),
      }};
  return s;
}

const ParamSection& recovery() {
  return recovery_fields().section();
}

const BoundSection<CheckpointSpec>& checkpoint_fields() {
  using C = CheckpointSpec;
  static const BoundSection<C> s{
      "checkpoint",
      "Checkpointing, available to every strategy.",
      {
          field::choice(&C::policy, kCheckpointPolicyNames, "interval",
                        "fixed: interval_s; young: sqrt(2 C M); daly: Daly's higher-order formula; "
                        "availability_optimal: minimises Daly's expected run time including "
                        "restarts"),
          field::number(&C::interval_s, "interval_s", "s", 1, kInf,
                        "interval when `interval` is fixed"),
          field::number(&C::save_s, "save_s", "s", 0, kInf, "time to write a checkpoint"),
          field::choice(&C::async, kSaveModeNames, "save_mode",
                        "blocking: training stops for save_s; async: stops for async_blocking_s, "
                        "durable after save_s"),
          field::number(&C::async_blocking_s, "async_blocking_s", "s", 0, kInf,
                        "training pause of an async save (snapshot to host memory)"),
          field::number(&C::load_s, "load_s", "s", 0, kInf, "time to load a checkpoint on restart"),
      }};
  return s;
}

const ParamSection& checkpoint() {
  return checkpoint_fields().section();
}

const BoundSection<CostSpec>& cost_fields() {
  using C = CostSpec;
  static const BoundSection<C> s{
      "cost",
      "How fast a replica runs at a reduced TP degree.",
      {
          field::choice(&C::model, kCostModelNames, "model",
                        "proportional: throughput = degree / tp, no overheads; iteration: "
                        "per-layer times from a calibration profile, TP collectives, the exact "
                        "(interleaved) 1F1B pipeline schedule, DP gradient sync, reshard (see "
                        "`goodput explain-step`); auto: iteration when /job/model is given"),
          field::declared<C>(optional(
              text("profile", Json(),
                   "calibration profile (default: calibrate/profiles/<gpu>-analytical.json)"))),
          field::boolean(&C::interpolate, "interpolate",
                         "accept a profile that lacks this model shape or a reachable TP degree "
                         "(its fit answers; report.json lists the degrees)"),
          field::number(&C::nvlink_gbps, "nvlink_gbps", "GB/s", 0, kInf,
                        "NVLink bandwidth per GPU, one direction (0: the GPU's nvlink_gbps, "
                        "`goodput describe hardware`: 450 for H100/H200, 900 for B200/GB200)"),
          field::number(&C::scaleout_gbps, "scaleout_gbps", "GB/s", 1e-3, kInf,
                        "scale-out network bandwidth per GPU"),
          field::number(&C::dp_overlap, "dp_overlap", "", 0, 1,
                        "share of the DP gradient all-reduce hidden behind backward"),
          field::number(&C::reshard_overlap, "reshard_overlap", "", 0, 1,
                        "share of the NTP gradient reshard hidden behind backward"),
          field::choice(&C::local_batch, kLocalBatchNames, "local_batch",
                        "what a degraded replica may cut from its local batch to keep pace with "
                        "the healthy step: whole_samples (its last micro-batch shrinks by whole "
                        "sequences of /job/micro_batch; what frameworks do), whole_microbatches "
                        "(only whole micro-batches), fractional (any fraction of a sequence: not "
                        "what any framework does; the NTP paper's idealised figures, kept for "
                        "comparison). Replaces partial_microbatch (true: fractional, false: "
                        "whole_microbatches)"),
          field::numbers(&C::curve_power, "curve_power", "x TDP", 0.1, 10,
                         "power multipliers of the power -> speed curve"),
          field::numbers(&C::curve_speed, "curve_speed", "x", 0.1, 10,
                         "speed multipliers at those powers (default: the NTP paper's TP30 perf/W "
                         "figures)"),
          field::choice(&C::curve_extension, kCurveExtensionNames, "curve_extension",
                        "the curve past its last point (the paper measured up to 1.2x): linear "
                        "(the last segment's slope: an extrapolation; the paper's rack proposal "
                        "assumes up to 1.3x) or flat (no speed gained past the last measured "
                        "point; boost then never goes beyond it)"),
      }};
  return s;
}

const ParamSection& cost() {
  return cost_fields().section();
}

const BoundSection<Scenario>& report_fields() {
  using S = Scenario;
  static const BoundSection<S> s{
      "report",
      "What reports add beyond the Goodput figures.",
      {
          field::numbers(&S::failed_gpu_thresholds, "failed_gpu_thresholds", "", 0, 1,
                         "cluster health: for each fraction x, the share of time with more than x "
                         "of all GPUs failed"),
          field::number(&S::train_hours, "train_hours", "h", 0, kInf,
                        "training the job needs on the healthy, failure-free cluster; > 0 adds "
                        "each strategy's time to train (train_hours / Goodput) and GPU-hours (x "
                        "every GPU of the cluster, spares included), and the run to completion: "
                        "per run, when progress first reaches it (mean, p50, p90, p99 over runs; "
                        "set horizon_hours long enough for the runs to finish)"),
          field::number(&S::train_steps, "train_steps", "steps", 0, kInf,
                        "the same target in training steps of the healthy job (x its step time "
                        "from the cost model); set one of train_hours, train_steps, train_tokens"),
          field::number(&S::train_tokens, "train_tokens", "tokens", 0, kInf,
                        "the same target in tokens: train_tokens / (dp x microbatches x "
                        "micro_batch x /job/model's seq_len) steps; needs /job/model"),
          field::number(&S::gpu_hour_price, "gpu_hour_price", "per GPU-hour", 0, kInf,
                        "price of one GPU-hour (any currency); > 0 with train_hours adds the cost "
                        "to train; set it or gpu_capex, not both"),
          field::number(&S::gpu_capex, "gpu_capex", "per GPU", 0, kInf,
                        "purchase price of one GPU, its share of server, network and facility "
                        "included; > 0 prices a GPU-hour as gpu_capex / (gpu_lifetime_years x "
                        "8766 h) instead of gpu_hour_price"),
          field::number(&S::gpu_lifetime_years, "gpu_lifetime_years", "years", 0.1, 100,
                        "years over which gpu_capex is written off (straight line, fully used)"),
          field::declared<S>(optional(number(
              "spare_gpu_hour_price", "per GPU-hour", Json(), 0, kInf,
              "price of one GPU-hour of the spare domains' hardware (default: what any GPU-hour "
              "costs); needs gpu_hour_price or gpu_capex"))),
          field::number(&S::gpu_power_kw, "gpu_power_kw", "kW", 0, 100,
                        "power of one GPU at work, its share of the server included; > 0 adds "
                        "each strategy's energy to the report (GPUs the job holds at this power, "
                        "idle healthy GPUs at idle_power_fraction of it, failed GPUs at none, "
                        "boost's extra on top; x pue)"),
          field::number(&S::idle_power_fraction, "idle_power_fraction", "", 0, 1,
                        "share of gpu_power_kw an idle healthy GPU (a spare) draws"),
          field::number(&S::pue, "pue", "", 1, 10,
                        "power usage effectiveness: facility / IT energy"),
          field::number(&S::energy_price_per_kwh, "energy_price_per_kwh", "per kWh", 0, kInf,
                        "price of one kWh at the facility meter (any currency, the same as "
                        "gpu_hour_price); > 0 with gpu_power_kw adds the energy cost"),
          field::text(&S::currency, "currency",
                      "currency of every price above and of the money figures reports print: an "
                      "ISO 4217 code (\"USD\", \"EUR\"; printed after the figure) or a symbol "
                      "of up to 4 characters (\"$\", \"€\"; printed before it)"),
          field::declared<S>(
              optional(text("baseline", Json(),
                            "strategy every other is compared with, paired over the same failures "
                            "(default: checkpoint_restart when it is compared, else none)"))),
      }};
  return s;
}

const ParamSection& report() {
  return report_fields().section();
}

const ParamSection& strategies() {
  static const ParamSection s{"strategies", "Strategies to compare: name -> parameters.", {}};
  return s;
}

const BoundSection<Scenario>& scenario_fields() {
  using S = Scenario;
  static const BoundSection<S> s{
      "scenario",
      "A goodput scenario file.",
      {
          field::text(&S::name, "name", "short name used in reports"),
          field::text(&S::description, "description", "one paragraph for the report"),
          field::choice(&S::mode, kRunModeNames, "mode",
                        "time: simulate a wall-clock horizon; snapshot: a fixed fraction of GPUs "
                        "down, placed at random (one placement per seed), steady-state throughput "
                        "per strategy"),
          field::number(&S::horizon_hours, "horizon_hours", "h", 1e-3, 1e6,
                        "simulated wall-clock time"),
          field::integer_or_word(&S::seeds, &S::seeds_auto, "auto", kAutoSeedBatch, "seeds", "runs",
                                 1, 1e6,
                                 "Monte Carlo runs; auto: goodput run and sweep add seeds in "
                                 "batches of " +
                                     std::to_string(kAutoSeedBatch) +
                                     " until the verdict and every Goodput CI are settled "
                                     "(as --seeds auto; --seeds N overrides)"),
          field::integer(&S::seed, "seed", "", 0, 9e15,
                         "base seed; run i uses streams derived from (seed, i, component)"),
          field::declared<S>(object("cluster", &cluster(), "hardware")),
          field::declared<S>(object("job", &job(), "training job")),
          field::declared<S>(object("failures", &failures(), "failure model")),
          field::declared<S>(object("recovery", &recovery(), "recovery costs")),
          field::declared<S>(object("checkpoint", &checkpoint(), "checkpointing")),
          field::declared<S>(object("cost", &cost(), "iteration-time cost model")),
          field::declared<S>(
              object("strategies", &strategies(), "strategies to compare (name -> parameters)")),
          field::declared<S>(object("report", &report(), "report settings")),
      }};
  return s;
}

const ParamSection& scenario() {
  return scenario_fields().section();
}

}  // namespace goodput::sections
