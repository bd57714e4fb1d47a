// Where the job's TP groups sit. Each domain holds up to floor(healthy / tp) groups; a group
// occupies `tp` healthy GPUs of one domain (slot k of the domain: GPUs tagged k + 1; untagged
// GPUs are idle, i.e. in-domain spares). For nonuniform TP a domain may also hold one partial
// group of fewer GPUs (its degree), in the slot after the full ones. Strategies decide *when*
// groups move; the layout only keeps the books: which GPUs are in use, which groups a failure hit,
// and where capacity is. Per-domain operations cost O(GPUs per domain). Finding free capacity costs
// O(log domains + domains touched): two ordered domain sets are kept up to date, `free_` (capacity
// above the assigned groups) and `used_` (at least one full group); health changes reach `free_`
// through ClusterHealth's change log, read from the layout's cursor before each search. grow()
// takes domains in ascending index order, shrink() in descending order, exactly as a full scan
// would.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "models/job/cluster_health.hpp"
#include "models/job/domain_set.hpp"

namespace goodput {

struct GroupHit {
  std::uint32_t domain;
  std::uint32_t slot;
};

class JobLayout {
 public:
  JobLayout(const ClusterHealth& health, int tp);
  void reset();

  int tp() const { return tp_; }
  std::uint32_t capacity(std::uint32_t domain) const {
    return health_->healthy_in_domain(domain) / tp_;
  }
  std::uint32_t assigned(std::uint32_t domain) const { return assigned_[domain]; }
  std::int64_t total_assigned() const { return total_assigned_; }  // full groups
  std::uint32_t partial(std::uint32_t domain) const {
    return partial_[domain];
  }                                     // its degree, 0: none
  std::int64_t total_capacity() const;  // sum of capacities (scans domains: not for per-fault use)
  std::int64_t in_use_gpus() const { return in_use_gpus_; }
  bool in_use(std::uint32_t gpu) const { return slot_[gpu] != 0; }
  // The GPU's tag: 0 idle, k + 1 a member of the domain's group in slot k.
  std::uint16_t tag(std::uint32_t gpu) const { return slot_[gpu]; }
  // GPUs tagged to slot k of the domain (k <= GPUs per domain / tp; 0 past its groups).
  std::uint16_t slot_count(std::uint32_t domain, std::uint32_t k) const {
    return slot_members_[static_cast<std::size_t>(domain) * slots_per_domain_ + k];
  }

  // A cache hint, no effect on results: starts loading domain d's bookkeeping (its GPU tags,
  // group counts), so that a driver updating several layouts after one health change (or
  // ahead of the next one) overlaps their memory latency instead of paying it layout by layout.
  void prefetch_domain(std::uint32_t d) const;
  // GPUs that just went down leave their groups; appends each distinct group hit.
  void release_down(std::span<const std::uint32_t> newly_down, std::vector<GroupHit>* hits);
  // Sets domain d to `groups` groups (clamped to its capacity), refilling short groups from idle
  // healthy GPUs and keeping the fullest groups when shrinking. Returns the groups placed.
  std::uint32_t assign(std::uint32_t domain, std::uint32_t groups,
                       std::uint32_t partial_degree = 0);
  // Re-forms every group short of GPUs in `domains` (dropping those that cannot be refilled),
  // then grows or shrinks the total towards `target` groups using free capacity anywhere.
  // Returns the total assigned afterwards.
  std::int64_t retarget(std::int64_t target, std::span<const std::uint32_t> dirty_domains);
  // retarget(target, dirty_domains), then retarget to the whole multiples of `unit` it formed
  // (whole replicas of `unit` groups), in one pass with the same final state: a domain the grow
  // would fill from empty and the shrink empty again is left as it is (operations on different
  // domains commute). Returns what the first step formed (before rounding down).
  std::int64_t retarget_whole(std::int64_t target, std::span<const std::uint32_t> dirty_domains,
                              std::int64_t unit);
  // Like retarget, but only refills inside the given domains (no moves to other domains).
  void refill_in_place(std::span<const std::uint32_t> domains);

  // The indexes, for tests: domains with free capacity / with full groups, as sets.
  const DomainSet& free_domains() {
    sync_health();
    return free_;
  }
  const DomainSet& used_domains() const { return used_; }

 private:
  std::uint32_t refill(std::uint32_t domain, GpuRange gpus, std::uint32_t groups,
                       std::uint32_t partial_degree);
  // assign()'s last step: domain d (capacity `cap`) now holds `groups` full groups and a partial
  // group of `partial_degree` (0: none), `in_use` GPUs tagged; updates the totals and indexes.
  void commit(std::uint32_t domain, std::uint32_t groups, std::uint32_t partial_degree,
              std::uint32_t in_use, std::uint32_t cap);
  // Idle healthy GPUs (tag 0, up): the first in [from, end) (end: none), the last in
  // [begin, below) (kNone: none).
  static constexpr std::uint32_t kNone = UINT32_MAX;
  std::uint32_t next_free(std::uint32_t from, std::uint32_t end) const;
  std::uint32_t prev_free(std::uint32_t begin, std::uint32_t below) const;
  void grow(std::int64_t groups);
  // grow() of a layout with no group placed since reset(), every GPU up (a run's first layout).
  void grow_fresh(std::int64_t groups);
  void shrink(std::int64_t groups);
  // grow()'s and shrink()'s step on one domain: `add` more full groups (its partial group
  // kept if it still fits); `remove` of its full groups taken away (the whole domain released
  // when none stays and it has no partial group).
  void add_groups(std::uint32_t domain, std::uint32_t add) {
    assign(domain, assigned_[domain] + add, partial_[domain]);
  }
  void remove_groups(std::uint32_t domain, std::uint32_t remove) {
    if (remove == assigned_[domain] && partial_[domain] == 0)
      release(domain);
    else
      assign(domain, assigned_[domain] - remove, partial_[domain]);
  }
  void release(std::uint32_t domain);  // assign(domain, 0, 0): every group released
  void sync_health();  // applies the health changes logged since the cursor to free_
  void index(std::uint32_t domain) {
    free_.set(domain, capacity(domain) > assigned_[domain]);
    used_.set(domain, assigned_[domain] > 0);
  }

  const ClusterHealth* health_;
  const Topology* topology_;
  int tp_;
  std::vector<std::uint16_t> slot_;           // per GPU: 0 idle, k + 1 member of group k
  std::vector<std::uint32_t> assigned_;       // per domain, full groups
  std::vector<std::uint16_t> partial_;        // per domain, degree of the partial group (0: none)
  std::vector<std::uint32_t> domain_in_use_;  // per domain, GPUs tagged to a group
  std::uint32_t slots_per_domain_ = 1;
  std::vector<std::uint16_t> slot_members_;  // [domain * slots_per_domain_ + slot]: GPUs tagged
  std::vector<std::uint32_t> order_, members_, target_;  // assign()'s scratch, per slot
  std::vector<std::uint16_t> relabel_;                   // assign()'s scratch, per tag
  std::int64_t total_assigned_ = 0;
  std::int64_t in_use_gpus_ = 0;
  bool fresh_ = true;  // no commit() since reset(): every domain empty, no partial degree
  std::vector<std::uint32_t> scratch_;
  // retarget_whole()'s plan: the grow's (domain, groups added, skipped), the shrink's (domain,
  // groups removed).
  struct Move {
    std::uint32_t domain;
    std::uint32_t groups;
    bool skipped;
  };
  std::vector<Move> grown_, shrunk_;
  DomainSet free_, used_;
  HealthLogCursor health_cursor_;  // entries of health_->changed_domains() already applied
};

}  // namespace goodput
