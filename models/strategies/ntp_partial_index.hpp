// NTP's candidate partial groups, one DomainSet per TP degree, kept up to date from
// ClusterHealth's change log: a domain with h healthy GPUs offers a partial group at
// allowed_degree(h % tp) (none when h % tp is 0 or below min_tp). While the cluster is short of
// full groups every domain's full groups are used, so these are exactly ntp_config's partial
// candidates, and its choice (degree falling, then domain rising) is the first `count` domains
// in (degree falling, domain rising) order: a threshold in that order, found with one Fenwick
// tree per degree in O(degrees x log domains) per query, after O(log domains) per logged change.
// best() lists the choice (O(count x log64 domains)); the strategy uses choose() and visits
// only the domains whose side of the threshold changed (for_each_between).
#pragma once

#include <cstdint>
#include <vector>

#include "models/job/capacity_index.hpp"
#include "models/job/cluster_health.hpp"
#include "models/job/domain_set.hpp"
#include "models/job/fenwick.hpp"
#include "models/strategies/ntp_config.hpp"

namespace goodput {

// Which partial groups a layout takes, as a threshold in rank order: the domains below `limit`
// whose degree slot s (0: the highest degree) and index d have (s, d) < (slot, cut). `runs`:
// how many of each degree that is (degree falling). Default: none taken.
struct NtpPartialChoice {
  int slot = 0;
  std::uint32_t cut = 0;
  std::vector<NtpDegreeRun> runs;
};

class NtpPartialIndex {
 public:
  NtpPartialIndex(const ClusterHealth& health, int tp, const NtpOptions& o);

  // Applies the health changes logged since the last call (rebuilds if the health was reset).
  void sync();
  // The degree of domain d's partial group as of the last sync (0: none).
  int degree(std::uint32_t d) const { return degree_of_rest_[rest_[d]]; }
  // Appends to *out the `count` best partial groups among domains below `limit`, in rank order
  // (fewer when there are not that many).
  void best(std::uint32_t limit, std::int64_t count, std::vector<NtpPartial>* out) const;
  // The same choice as best(), as a threshold and its runs, in O(degrees x log domains).
  void choose(std::uint32_t limit, std::int64_t count, NtpPartialChoice* out) const;
  // Whether domain d (below the choice's limit) is taken by `choice`, as of the last sync.
  bool taken(const NtpPartialChoice& choice, std::uint32_t d) const {
    const int s = slot_of_degree_[static_cast<std::size_t>(degree(d))];
    return s >= 0 && (s < choice.slot || (s == choice.slot && d < choice.cut));
  }
  // Calls f(d) for every domain offering a partial group whose side differs between the
  // thresholds a and b (and perhaps a few more): O(those x log64 domains + degrees).
  template <class F>
  void for_each_between(const NtpPartialChoice& a, const NtpPartialChoice& b, F&& f) const {
    const bool a_first = a.slot < b.slot || (a.slot == b.slot && a.cut <= b.cut);
    const NtpPartialChoice& lo = a_first ? a : b;
    const NtpPartialChoice& hi = a_first ? b : a;
    for (int s = lo.slot; s <= hi.slot && s < static_cast<int>(sets_.size()); ++s) {
      const DomainSet& set = sets_[static_cast<std::size_t>(s)];
      const std::uint32_t from = s == lo.slot ? lo.cut : 0;
      const std::uint32_t to = s == hi.slot ? hi.cut : DomainSet::npos;
      for (std::uint32_t d = set.next(from); d != DomainSet::npos && d < to; d = set.next(d + 1))
        f(d);
    }
  }

 private:
  void rebuild();
  void place(std::uint32_t d, std::uint32_t rest);  // moves d to the set of its new rest

  const ClusterHealth* health_;
  std::uint32_t tp_;
  std::vector<int> degree_of_rest_;  // [h % tp]: allowed degree, 0: none
  std::vector<int> slot_of_degree_;  // [degree]: index into sets_, -1: not reachable
  std::vector<int> degrees_;         // reachable degrees, falling (sets_[i] holds degrees_[i])
  std::vector<DomainSet> sets_;
  std::vector<Fenwick<std::int32_t>> counts_;  // counts_[i]: 1 per member of sets_[i]
  std::vector<std::uint16_t> rest_;            // per domain: h % tp as of the last sync
  HealthLogCursor cursor_;
};

// ntp_config(health, tp, pp, dp, o, cost, limit) from the indexes (both synced), for the job
// and options of `figures`, valid while the full groups below `limit` fall short of dp x pp
// (caps.prefix(limit) < dp x pp). Every field but `use`: that layout takes every full group
// below `limit` and the partial groups of *choice.
NtpConfig ntp_short_config(const CapacityIndex& caps, const NtpPartialIndex& index,
                           std::uint32_t limit, NtpFigures& figures, NtpPartialChoice* choice);

}  // namespace goodput
