// NTP's candidate partial groups, one DomainSet per TP degree, kept up to date from
// ClusterHealth's change log: a domain with h healthy GPUs offers a partial group at
// allowed_degree(h % tp) (none when h % tp is 0 or below min_tp). While the cluster is short of
// full groups every domain's full groups are used, so these are exactly ntp_config's partial
// candidates, and its choice (degree falling, then domain rising) is read off the sets from the
// highest degree down: O(count x log64 domains + degrees) per query, O(1) per logged change.
#pragma once

#include <cstdint>
#include <vector>

#include "models/job/capacity_index.hpp"
#include "models/job/cluster_health.hpp"
#include "models/job/domain_set.hpp"
#include "models/strategies/ntp_config.hpp"

namespace goodput {

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

 private:
  void rebuild();
  void place(std::uint32_t d, std::uint32_t rest);  // moves d to the set of its new rest

  const ClusterHealth* health_;
  std::uint32_t tp_;
  std::vector<int> degree_of_rest_;  // [h % tp]: allowed degree, 0: none
  std::vector<int> slot_of_degree_;  // [degree]: index into sets_, -1: not reachable
  std::vector<int> degrees_;         // reachable degrees, falling (sets_[i] holds degrees_[i])
  std::vector<DomainSet> sets_;
  std::vector<std::uint16_t> rest_;  // per domain: h % tp as of the last sync
  std::size_t cursor_ = 0;
};

// ntp_config(health, tp, pp, dp, o, cost, limit) from the indexes (both synced), valid while
// the full groups below `limit` fall short of dp x pp (caps.prefix(limit) < dp x pp). Every
// field but `use`: that layout takes every full group below `limit` and the partial groups
// left in *partials (in rank order).
NtpConfig ntp_short_config(const CapacityIndex& caps, const NtpPartialIndex& index,
                           std::uint32_t limit, int tp, int pp, int dp, const NtpOptions& o,
                           CostMemo& cost, std::vector<NtpPartial>* partials);

}  // namespace goodput
