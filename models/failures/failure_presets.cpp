#include "models/failures/failure_presets.hpp"

#include <stdexcept>

namespace goodput {

namespace {

// Llama 3 405B (arXiv 2407.21783, table 5): 419 unexpected interruptions over 54 days on
// 16,384 H100 GPUs in 2,048 hosts (1,296 h). Per-component MTBF = components x 1,296 h / count.
constexpr double kLlamaHours = 54 * 24.0;
constexpr double kLlamaGpus = 16384, kLlamaHosts = 2048;

RepairSpec hardware_mixture() {
  // A short reset mode, a field-repair mode and a long RMA tail (median ~1 day, mean ~2.8 days).
  RepairSpec r;
  r.kind = RepairSpec::Kind::Mixture;
  r.modes = {{0.3, 0.5, 0.5}, {0.5, 24.0, 0.6}, {0.2, 240.0, 0.5}};
  return r;
}

RepairSpec lognormal(double median_hours, double sigma) {
  RepairSpec r;
  r.kind = RepairSpec::Kind::Lognormal;
  r.modes = {{1.0, median_hours, sigma}};
  return r;
}

RepairSpec restart_only() {
  RepairSpec r;
  r.kind = RepairSpec::Kind::Restart;
  r.modes = {{1.0, 0.0, 0.0}};
  return r;
}

std::vector<FailureClassSpec> llama3(double rate_factor) {
  auto mtbf = [&](double components, double count) {
    return components * kLlamaHours / count / rate_factor;
  };
  return {
      // GPU (148 faulty GPU, 72 HBM3, 19 SRAM, 17 GSP, 6 SDC, 6 thermal) = 268
      {"gpu", ComponentKind::Gpu, mtbf(kLlamaGpus, 268), hardware_mixture()},
      // Host (32 maintenance, 7 NIC, 3 SSD, 3 PSU, 2 chassis, 2 IO board, 2 CPU, 2 memory) = 53
      {"host", ComponentKind::Node, mtbf(kLlamaHosts, 53), hardware_mixture()},
      // Network switch / cable = 35; counted per host link
      {"network", ComponentKind::Node, mtbf(kLlamaHosts, 35), lognormal(4.0, 0.8)},
      // Software bug 54 + dependency 2 = 56, per GPU (each rank's process can crash)
      {"software", ComponentKind::Gpu, mtbf(kLlamaGpus, 56), restart_only()},
      // NCCL watchdog time-outs, unknown = 7
      {"unknown", ComponentKind::Gpu, mtbf(kLlamaGpus, 7), restart_only()},
  };
}

// Correlated classes above the node, for rack-scale NVLink clusters (GB200 NVL72, NVL32). No
// public source gives their rates (shared/reference/failure-rates.md: "rack-level events for
// NVL72: no public rate"), so every figure below is an ASSUMPTION, chosen as follows:
// - nvswitch-tray (domain): an NVLink switch tray or the copper spine cartridge takes the whole
//   NVLink domain out (NVL72: 9 switch trays, ~5,000 copper cables per rack; NVLink errors are
//   the rack-scale fault early GB200 deployments reported most). One per domain-year; median
//   6 h (tray swap and fabric-manager restart), lognormal sigma 1.
// - rack-power (rack): a power shelf, busbar or rack PDU beyond what N+1 supplies absorb. One
//   per rack per 3 years; median 4 h, sigma 0.8.
// - rack-cooling (rack): a liquid-cooling manifold, quick-disconnect leak or flow alarm that
//   shuts the rack down. One per rack per 2 years; median 12 h (drain, fix, refill), sigma 1.
// - tor-switch (rack): the rack's top-of-rack / leaf switch. One per rack per 3 years; median
//   4 h, sigma 0.8 (llama3's network repair time).
// - row-power-cooling (row): a busway, row PDU or in-row CDU takes /cluster/racks_per_row racks.
//   One per row per 5 years; median 8 h, sigma 1.
// - fleet-outage (fleet): a site power or cooling-plant event, or a shared storage or network
//   core outage, stops every job. Uptime Institute's annual outage analyses (2023, 2024): power
//   is the most common cause of serious data-center outages and roughly one site in five reports
//   an impactful outage a year; a training job also stops for its storage and network core, so
//   one a year; median 4 h, sigma 1.
std::vector<FailureClassSpec> correlated_classes() {
  constexpr double kYear = 8766;
  return {
      {"nvswitch-tray", ComponentKind::Domain, kYear, lognormal(6.0, 1.0)},
      {"rack-power", ComponentKind::Rack, 3 * kYear, lognormal(4.0, 0.8)},
      {"rack-cooling", ComponentKind::Rack, 2 * kYear, lognormal(12.0, 1.0)},
      {"tor-switch", ComponentKind::Rack, 3 * kYear, lognormal(4.0, 0.8)},
      {"row-power-cooling", ComponentKind::Row, 5 * kYear, lognormal(8.0, 1.0)},
      {"fleet-outage", ComponentKind::Fleet, kYear, lognormal(4.0, 1.0)},
  };
}

std::vector<FailureClassSpec> llama3_correlated() {
  auto out = llama3(1.0);
  for (auto& c : correlated_classes()) out.push_back(std::move(c));
  return out;
}

std::vector<FailureClassSpec> ntp_paper() {
  // NTP paper: Llama 3's total rate per GPU, 78% hardware repaired in 3-5 days, 22% software
  // recovered in 3 hours.
  const double per_gpu_hour = 419.0 / (kLlamaGpus * kLlamaHours);
  RepairSpec sw;
  sw.kind = RepairSpec::Kind::Fixed;
  sw.modes = {{1.0, 3.0, 0.0}};
  return {{"hardware", ComponentKind::Gpu, 1.0 / (0.78 * per_gpu_hour), lognormal(96.0, 0.15)},
          {"software", ComponentKind::Gpu, 1.0 / (0.22 * per_gpu_hour), sw}};
}

// Fail-slow classes (issue 29). What the sources say: fail-slows come from CPU contention, GPU
// thermal throttling and, more often and with larger effect, cross-node networking; they last
// from tens of seconds to nearly ten hours, and a detector flags an iteration-time change of
// 10% or more (FALCON, Alibaba, arXiv 2410.12588, on a 10,000-GPU cluster); stragglers are not
// always hardware (ByteDance, OSDI'25, arXiv 2505.05713). What is assumed here: the rates (a GPU
// throttles as often as one fails outright in Llama 3's count; a node's network slows twice as
// often as Llama 3's network faults), the slowdown ranges and the 10-minute detection.
std::vector<FailureClassSpec> slow_classes() {
  FailureClassSpec gpu{"gpu-slow", ComponentKind::Gpu, kLlamaGpus * kLlamaHours / 268,
                       lognormal(1.0, 1.0)};
  gpu.kind = FailureClassSpec::Kind::Slow;
  gpu.slowdown = 1.1;
  gpu.slowdown_max = 2.0;
  gpu.detection_s = 600;
  FailureClassSpec net{"network-slow", ComponentKind::Node, kLlamaHosts * kLlamaHours / 70,
                       lognormal(0.5, 1.0)};
  net.kind = FailureClassSpec::Kind::Slow;
  net.slowdown = 1.1;
  net.slowdown_max = 1.5;
  net.detection_s = 600;
  return {gpu, net};
}

template <class F>
std::vector<FailureClassSpec> with_slow(F&& stop_classes) {
  std::vector<FailureClassSpec> c = stop_classes();
  for (auto& s : slow_classes()) c.push_back(std::move(s));
  return c;
}

// The presets, each named once: its classes and where its numbers come from.
struct FailurePreset {
  const char* name;
  std::vector<FailureClassSpec> (*classes)();
  const char* doc;
};

const FailurePreset kFailurePresets[] = {
    {"llama3", [] { return llama3(1.0); },
     "Llama 3 405B pre-training (arXiv 2407.21783): 419 unexpected interruptions in 54 days on "
     "16,384 H100 (2,048 hosts), split by scope: gpu 268 (per GPU), host 53 and network 35 (per "
     "node), software 56 and unknown 7 (per GPU, restart only). Hardware repairs: a mixture of "
     "0.5 h resets (30%), 1-day field repairs (50%) and 10-day RMAs (20%); network: lognormal, "
     "median 4 h."},
    // Meta research clusters (Kokolis et al.): RSC-2 2.34 and RSC-1 6.50 per 1,000 node-days,
    // against Llama 3's 3.8: the same mix, scaled.
    {"optimistic", [] { return llama3(2.34 / 3.8); },
     "llama3's mix scaled to Meta RSC-2's 2.34 failures per 1,000 node-days."},
    {"pessimistic", [] { return llama3(6.5 / 3.8); },
     "llama3's mix scaled to Meta RSC-1's 6.50 failures per 1,000 node-days."},
    {"llama3-correlated", &llama3_correlated,
     "llama3's classes plus correlated events above the node, for rack-scale NVLink clusters "
     "(GB200 NVL72, NVL32; on HGX, where the domain is one node, nvswitch-tray would count the "
     "baseboard's NVSwitch twice): nvswitch-tray per domain once a year (median 6 h); per rack "
     "rack-power once in 3 years (4 h), rack-cooling once in 2 years (12 h), tor-switch once in "
     "3 years (4 h); row-power-cooling per row (/cluster/racks_per_row racks) once in 5 years "
     "(8 h); fleet-outage, every GPU, once a year (4 h; Uptime Institute: power causes most "
     "serious site outages). Repairs lognormal. No public source gives these rates: all are "
     "assumptions (failure_presets.cpp says why each); move them with /failures/classes."},
    {"ntp-paper", &ntp_paper,
     "The NTP paper's model: Llama 3's rate per GPU, 78% hardware (lognormal, median 4 days) and "
     "22% software (GPU out for 3 h)."},
    {"llama3-slow", [] { return with_slow([] { return llama3(1.0); }); },
     "llama3 plus fail-slow classes (kind slow): gpu-slow (per GPU, as often as Llama 3's GPU "
     "faults, 1.1-2x slower, lognormal duration median 1 h) and network-slow (per node, twice "
     "Llama 3's network faults, 1.1-1.5x, median 30 min), detected after 10 min. The sources "
     "(FALCON arXiv 2410.12588: fail-slows last tens of seconds to ~10 h, detected at >= 10% "
     "iteration-time change; ByteDance arXiv 2505.05713) support the kinds and durations; the "
     "rates, factors and detection time are assumptions."},
    {"ntp-paper-slow", [] { return with_slow(&ntp_paper); },
     "ntp-paper plus the fail-slow classes of llama3-slow (assumed rates, see there)."},
    {"none", [] { return std::vector<FailureClassSpec>{}; }, "No failures."},
};

const FailurePreset* find_preset(const std::string& name) {
  for (const auto& p : kFailurePresets)
    if (name == p.name) return &p;
  return nullptr;
}

}  // namespace

std::vector<std::string> failure_preset_names() {
  std::vector<std::string> out;
  for (const auto& p : kFailurePresets) out.emplace_back(p.name);
  return out;
}

std::vector<FailureClassSpec> failure_preset(const std::string& name) {
  if (const FailurePreset* p = find_preset(name)) return p->classes();
  throw std::invalid_argument("unknown failure preset " + name);
}

std::string failure_preset_doc(const std::string& name) {
  const FailurePreset* p = find_preset(name);
  return p ? p->doc : "";
}

}  // namespace goodput
