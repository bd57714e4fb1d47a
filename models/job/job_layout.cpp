#include "models/job/job_layout.hpp"

#include <algorithm>
#include <stdexcept>

#include "models/job/tag_scan.hpp"
#include "sim/core/cache_hint.hpp"

namespace goodput {

JobLayout::JobLayout(const ClusterHealth& health, int tp)
    : health_(&health), topology_(&health.topology()), tp_(tp) {
  if (tp < 1 || static_cast<std::uint32_t>(tp) > topology_->gpus_per_domain())
    throw std::invalid_argument("JobLayout: tp must be between 1 and the GPUs per domain");
  if (topology_->gpus_per_domain() / static_cast<std::uint32_t>(tp) > 65535)
    throw std::invalid_argument("JobLayout: too many groups per domain");
  reset();
}

void JobLayout::reset() {
  slot_.assign(topology_->gpus(), 0);
  assigned_.assign(topology_->domains(), 0);
  partial_.assign(topology_->domains(), 0);
  domain_in_use_.assign(topology_->domains(), 0);
  slots_per_domain_ = topology_->gpus_per_domain() / static_cast<std::uint32_t>(tp_) + 1;
  slot_members_.assign(static_cast<std::size_t>(topology_->domains()) * slots_per_domain_, 0);
  // assign()'s scratch, one entry per slot (relabel_: per tag, 0 included), sized once.
  order_.assign(slots_per_domain_, 0);
  members_.assign(slots_per_domain_, 0);
  target_.assign(slots_per_domain_, 0);
  scratch_.assign(slots_per_domain_, 0);
  relabel_.assign(slots_per_domain_ + 1, 0);
  total_assigned_ = 0;
  in_use_gpus_ = 0;
  fresh_ = true;
  free_.reset(topology_->domains());
  used_.reset(topology_->domains());
  if (health_->down_gpus() == 0)
    free_.fill();  // every domain whole: capacity >= 1 (tp <= GPUs per domain), no group
  else
    for (std::uint32_t d = 0; d < topology_->domains(); ++d) index(d);
  health_cursor_.skip_to_end(*health_);
}

void JobLayout::sync_health() {
  if (!health_cursor_.catch_up(*health_, [this](std::uint32_t d) { index(d); }))
    for (std::uint32_t d = 0; d < topology_->domains(); ++d) index(d);  // the health was reset
}

std::int64_t JobLayout::total_capacity() const {
  std::int64_t c = 0;
  for (std::uint32_t d = 0; d < topology_->domains(); ++d) c += capacity(d);
  return c;
}

void JobLayout::prefetch_domain(std::uint32_t d) const {
  const GpuRange r = topology_->domain_gpus(d);
  constexpr std::size_t kLine = 64 / sizeof(slot_[0]);  // tags per cache line
  for (std::size_t i = r.front(); i < r.front() + r.size(); i += kLine) cache_hint(&slot_[i]);
  cache_hint(&slot_[r.back()]);
  cache_hint(&domain_in_use_[d]);
  cache_hint(&slot_members_[static_cast<std::size_t>(d) * slots_per_domain_]);
  cache_hint(&assigned_[d]);
  cache_hint(&partial_[d]);
}

void JobLayout::release_down(std::span<const std::uint32_t> newly_down,
                             std::vector<GroupHit>* hits) {
  for (std::uint32_t gpu : newly_down) {
    if (slot_[gpu] == 0) continue;
    const GroupHit hit{topology_->domain_of_gpu(gpu), static_cast<std::uint32_t>(slot_[gpu] - 1)};
    slot_[gpu] = 0;
    --in_use_gpus_;
    --domain_in_use_[hit.domain];
    --slot_members_[static_cast<std::size_t>(hit.domain) * slots_per_domain_ + hit.slot];
    if (hits && std::none_of(hits->begin(), hits->end(), [&](const GroupHit& h) {
          return h.domain == hit.domain && h.slot == hit.slot;
        }))
      hits->push_back(hit);
  }
}

std::uint32_t JobLayout::assign(std::uint32_t domain, std::uint32_t groups,
                                std::uint32_t partial_degree) {
  const std::uint32_t healthy = health_->healthy_in_domain(domain);
  const std::uint32_t cap = healthy / static_cast<std::uint32_t>(tp_);
  groups = std::min(groups, cap);
  if (partial_degree >= static_cast<std::uint32_t>(tp_) || partial_degree > healthy - groups * tp_)
    partial_degree = 0;
  const GpuRange gpus = topology_->domain_gpus(domain);
  if (groups == assigned_[domain] && partial_degree == partial_[domain]) {
    // Same groups: only top up the short ones (nothing to do when every GPU is in place).
    if (domain_in_use_[domain] < groups * static_cast<std::uint32_t>(tp_) + partial_degree)
      domain_in_use_[domain] += refill(domain, gpus, groups, partial_degree);
    return groups;
  }
  const std::uint32_t old_slots = assigned_[domain] + (partial_[domain] ? 1 : 0);
  const std::uint32_t new_slots = groups + (partial_degree ? 1 : 0);
  if (new_slots == 0) {
    release(domain);
    return 0;
  }
  std::uint16_t* counts = &slot_members_[static_cast<std::size_t>(domain) * slots_per_domain_];
  if (domain_in_use_[domain] == 0) {
    // No GPU in a group (every slot count 0): the slots take the healthy GPUs in index order,
    // as the general fill below would, without the relabelling set-up. `groups` and the partial
    // degree fit the healthy GPUs (clamped above), so every slot fills.
    std::uint32_t g = gpus.front();
    for (std::uint32_t k = 0; k < new_slots; ++k) {
      const std::uint32_t size = k < groups ? static_cast<std::uint32_t>(tp_) : partial_degree;
      if (healthy == gpus.size()) {  // all up: a run of `size` GPUs
        std::fill_n(slot_.begin() + g, size, static_cast<std::uint16_t>(k + 1));
        g += size;
      } else {
        for (std::uint32_t taken = 0; taken < size; ++g)
          if (health_->up(g)) {
            slot_[g] = static_cast<std::uint16_t>(k + 1);
            ++taken;
          }
      }
      counts[k] = static_cast<std::uint16_t>(size);
    }
    const std::uint32_t in_use = groups * static_cast<std::uint32_t>(tp_) + partial_degree;
    in_use_gpus_ += in_use;
    commit(domain, groups, partial_degree, in_use, cap);
    return groups;
  }
  // The scratch is sized once (reset), for the most slots a domain can have: plain loops over
  // the few slots in use, no vector resizing per call.
  std::uint32_t* const target = target_.data();
  std::uint32_t* const members = members_.data();
  std::uint32_t* const order = order_.data();
  std::uint32_t* const held = scratch_.data();
  std::uint16_t* const relabel = relabel_.data();
  for (std::uint32_t k = 0; k < new_slots; ++k) {
    target[k] = static_cast<std::uint32_t>(tp_);
    members[k] = 0;
  }
  if (partial_degree) target[groups] = partial_degree;
  // Members per old slot (kept in slot_members_); the fullest old slots become the new slots,
  // in order.
  for (std::uint32_t k = 0; k < old_slots; ++k) {
    held[k] = counts[k];
    order[k] = k;
  }
  // Stable insertion sort by members, descending (a domain has few slots; std::stable_sort
  // would allocate a buffer on every call).
  for (std::uint32_t i = 1; i < old_slots; ++i) {
    const std::uint32_t k = order[i];
    std::uint32_t j = i;
    for (; j > 0 && held[order[j - 1]] < held[k]; --j) order[j] = order[j - 1];
    order[j] = k;
  }
  for (std::uint32_t k = 0; k <= old_slots; ++k) relabel[k] = 0;  // old tag -> new (0: released)
  for (std::uint32_t i = 0; i < std::min(old_slots, new_slots); ++i)
    relabel[order[i] + 1] = static_cast<std::uint16_t>(i + 1);
  // Relabel the tagged GPUs (domain_in_use_ of them: stop after the last).
  std::uint32_t tagged = domain_in_use_[domain];
  for (auto g = gpus.begin(); tagged > 0 && g != gpus.end(); ++g) {
    if (slot_[*g] == 0) continue;
    --tagged;
    std::uint16_t tag = relabel[slot_[*g]];
    if (tag != 0 && members[tag - 1] >= target[tag - 1]) tag = 0;  // shrunk group: release extras
    slot_[*g] = tag;
    if (tag == 0)
      --in_use_gpus_;
    else
      ++members[tag - 1];
  }
  // Fill every slot up to its size from idle healthy GPUs, in index order. k: the first slot
  // short of GPUs (it moves only when a GPU joins).
  std::uint32_t k = 0;
  auto next_short = [&] {
    while (k < new_slots && members[k] >= target[k]) ++k;
  };
  next_short();
  const std::uint32_t end = gpus.back() + 1;
  for (std::uint32_t g = next_free(gpus.front(), end); k < new_slots && g < end;
       g = next_free(g + 1, end)) {
    slot_[g] = static_cast<std::uint16_t>(k + 1);
    ++members[k];
    ++in_use_gpus_;
    next_short();
  }
  // Member counts of the new slots; the old slots past them empty (past both, already 0).
  std::uint32_t in_use = 0;
  for (std::uint32_t slot = 0; slot < new_slots; ++slot) {
    in_use += members[slot];
    counts[slot] = static_cast<std::uint16_t>(members[slot]);
  }
  for (std::uint32_t slot = new_slots; slot < old_slots; ++slot) counts[slot] = 0;
  commit(domain, groups, partial_degree, in_use, cap);
  return groups;
}

void JobLayout::commit(std::uint32_t domain, std::uint32_t groups, std::uint32_t partial_degree,
                       std::uint32_t in_use, std::uint32_t cap) {
  fresh_ = false;
  domain_in_use_[domain] = in_use;
  total_assigned_ +=
      static_cast<std::int64_t>(groups) - static_cast<std::int64_t>(assigned_[domain]);
  assigned_[domain] = groups;
  partial_[domain] = static_cast<std::uint16_t>(partial_degree);
  free_.set(domain, cap > groups);  // index(domain), the capacity known
  used_.set(domain, groups > 0);
}

// Tops up every short slot to its size (tp, or the partial degree for the last one) from idle
// healthy GPUs, taken from the end of the domain (where the idle ones usually are); slots keep
// their numbers. Returns the GPUs added.
std::uint32_t JobLayout::refill(std::uint32_t domain, GpuRange gpus, std::uint32_t groups,
                                std::uint32_t partial_degree) {
  const std::uint32_t slots = groups + (partial_degree ? 1 : 0);
  std::uint16_t* counts = &slot_members_[static_cast<std::size_t>(domain) * slots_per_domain_];
  auto size = [&](std::uint32_t slot) {
    return slot < groups ? static_cast<std::uint32_t>(tp_) : partial_degree;
  };
  // GPUs in groups are healthy (release_down runs on every health change), so the domain's
  // idle healthy GPUs number healthy - in use: stop once they are all taken (or none exist).
  const std::uint32_t idle = health_->healthy_in_domain(domain) - domain_in_use_[domain];
  // k: the first slot short of GPUs (it moves only when a GPU joins).
  std::uint32_t k = 0, added = 0;
  auto next_short = [&] {
    while (k < slots && counts[k] >= size(k)) ++k;
  };
  next_short();
  for (std::uint32_t g = gpus.back() + 1; added < idle && k < slots;) {
    g = prev_free(gpus.front(), g);
    if (g == kNone) break;
    slot_[g] = static_cast<std::uint16_t>(k + 1);
    ++counts[k];
    ++in_use_gpus_;
    ++added;
    next_short();
  }
  return added;
}

std::uint32_t JobLayout::next_free(std::uint32_t from, std::uint32_t end) const {
  return tag_scan::first_zero_pair(slot_.data(), health_->down_counts(), from, end);
}

std::uint32_t JobLayout::prev_free(std::uint32_t begin, std::uint32_t below) const {
  static_assert(kNone == tag_scan::npos);
  return tag_scan::last_zero_pair(slot_.data(), health_->down_counts(), begin, below);
}

void JobLayout::refill_in_place(std::span<const std::uint32_t> domains) {
  for (std::uint32_t d : domains) {
    // Every slot full: its GPUs are healthy (release_down), so the groups fit and assign()
    // would change nothing (a domain refilled once is skipped the second time).
    if (domain_in_use_[d] == assigned_[d] * static_cast<std::uint32_t>(tp_) + partial_[d]) continue;
    assign(d, assigned_[d], partial_[d]);
  }
}

// Lowest-index domains with free capacity first (the order of a scan from domain 0).
void JobLayout::grow(std::int64_t groups) {
  sync_health();
  if (fresh_ && health_->down_gpus() == 0) {
    grow_fresh(groups);
    return;
  }
  for (std::uint32_t d = free_.next(0); d != DomainSet::npos && groups > 0; d = free_.next(d + 1)) {
    const std::uint32_t free = capacity(d) - assigned_[d];  // > 0: d is in free_
    const auto add = static_cast<std::uint32_t>(std::min<std::int64_t>(free, groups));
    add_groups(d, add);
    groups -= add;
  }
}

// Every domain empty and whole: each has the same capacity `per`, so the loop above would give
// domains 0, 1, ... `per` groups each (the last one the rest), and assign() would tag slot k of
// each with the GPUs [k tp, (k + 1) tp) of its domain (its all-up fill) and index it. The same
// state, written directly: a fill per domain, the two indexes set as ranges at the end.
void JobLayout::grow_fresh(std::int64_t groups) {
  if (groups <= 0) return;
  const std::uint32_t tp = static_cast<std::uint32_t>(tp_);
  const std::uint32_t per = topology_->gpus_per_domain() / tp;  // >= 1 (the constructor)
  const std::uint32_t domains = topology_->domains();
  const auto whole = static_cast<std::uint32_t>(std::min<std::int64_t>(groups / per, domains));
  // The rest (< per) on the next domain, if there is one.
  const auto rest =
      whole < domains ? static_cast<std::uint32_t>(groups - std::int64_t{whole} * per) : 0u;
  auto place = [&](std::uint32_t d, std::uint32_t n) {
    const std::uint32_t first = topology_->domain_gpus(d).front();
    std::uint16_t* counts = &slot_members_[static_cast<std::size_t>(d) * slots_per_domain_];
    for (std::uint32_t k = 0; k < n; ++k) {
      std::fill_n(slot_.begin() + first + k * tp, tp, static_cast<std::uint16_t>(k + 1));
      counts[k] = static_cast<std::uint16_t>(tp);
    }
    domain_in_use_[d] = n * tp;
    assigned_[d] = n;
  };
  for (std::uint32_t d = 0; d < whole; ++d) place(d, per);
  if (rest > 0) place(whole, rest);
  total_assigned_ = std::int64_t{whole} * per + rest;  // fresh: none before
  in_use_gpus_ = total_assigned_ * tp;
  free_.assign_range(whole, domains);  // capacity above the groups: all but the whole domains
  used_.assign_range(0, whole + (rest > 0 ? 1 : 0));
  fresh_ = false;
}

// Highest-index domains holding groups first (the order of a scan from the last domain).
void JobLayout::shrink(std::int64_t groups) {
  for (std::uint32_t d = used_.prev(DomainSet::npos); d != DomainSet::npos && groups > 0;
       d = d == 0 ? DomainSet::npos : used_.prev(d - 1)) {
    const auto remove = static_cast<std::uint32_t>(std::min<std::int64_t>(assigned_[d], groups));
    remove_groups(d, remove);
    groups -= remove;
  }
}

// Every group of domain d released (assign(d, 0, 0)'s effect, also shrink()'s when no partial
// group stays): its tagged GPUs (domain_in_use_ of them; none: every tag and slot count is 0
// already) become idle, its slot counts 0.
void JobLayout::release(std::uint32_t d) {
  if (const std::uint32_t tagged = domain_in_use_[d]; tagged != 0) {
    const GpuRange gpus = topology_->domain_gpus(d);
    std::fill_n(slot_.begin() + gpus.front(), gpus.size(), std::uint16_t{0});
    in_use_gpus_ -= tagged;
    std::fill_n(slot_members_.begin() + static_cast<std::ptrdiff_t>(d) * slots_per_domain_,
                assigned_[d] + (partial_[d] ? 1 : 0), std::uint16_t{0});
  }
  commit(d, 0, 0, 0, capacity(d));
}

std::int64_t JobLayout::retarget(std::int64_t target,
                                 std::span<const std::uint32_t> dirty_domains) {
  refill_in_place(dirty_domains);
  if (total_assigned_ < target)
    grow(target - total_assigned_);
  else if (total_assigned_ > target)
    shrink(total_assigned_ - target);
  return total_assigned_;
}

// The grow first planned (ascending free domains, as grow() takes them), then the shrink of the
// excess over whole units (descending over the domains holding groups after the grow, as
// shrink() takes them); a domain both filled from empty and emptied again is skipped by both
// (assign() of an empty domain then release() restore its tags, counts, totals and indexes).
// Everything else is applied as grow() then shrink() would: the grows in ascending order, then
// the shrinks in descending order.
std::int64_t JobLayout::retarget_whole(std::int64_t target,
                                       std::span<const std::uint32_t> dirty_domains,
                                       std::int64_t unit) {
  refill_in_place(dirty_domains);
  if (total_assigned_ >= target || unit <= 1 || fresh_) {  // no grow to plan: the two steps
    const std::int64_t formed = retarget(target, {});
    if (formed % unit != 0) retarget(formed / unit * unit, {});
    return formed;
  }
  sync_health();
  grown_.clear();
  std::int64_t need = target - total_assigned_;
  for (std::uint32_t d = free_.next(0); d != DomainSet::npos && need > 0; d = free_.next(d + 1)) {
    const std::uint32_t free = capacity(d) - assigned_[d];  // > 0: d is in free_
    const auto add = static_cast<std::uint32_t>(std::min<std::int64_t>(free, need));
    grown_.push_back({d, add, false});
    need -= add;
  }
  const std::int64_t formed = target - need;
  std::int64_t excess = formed - formed / unit * unit;
  if (excess == 0) {  // whole units formed (the usual case): grow() alone
    for (const Move& m : grown_) add_groups(m.domain, m.groups);
    return formed;
  }
  // The shrink's walk: used_ and the grown domains merged, highest index first.
  shrunk_.clear();
  std::size_t g = grown_.size();
  std::uint32_t u = used_.prev(DomainSet::npos);
  while (excess > 0 && (g > 0 || u != DomainSet::npos)) {
    const bool from_grown = g > 0 && (u == DomainSet::npos || grown_[g - 1].domain >= u);
    const std::uint32_t d = from_grown ? grown_[g - 1].domain : u;
    const std::uint32_t added = from_grown ? grown_[g - 1].groups : 0;
    const std::uint32_t held = assigned_[d] + added;
    const auto remove = static_cast<std::uint32_t>(std::min<std::int64_t>(held, excess));
    if (from_grown && assigned_[d] == 0 && partial_[d] == 0 && remove == added)
      grown_[g - 1].skipped = true;  // filled from empty, emptied again
    else
      shrunk_.push_back({d, remove, false});
    excess -= remove;
    if (from_grown) {
      if (u == d) u = d == 0 ? DomainSet::npos : used_.prev(d - 1);
      --g;
    } else {
      u = d == 0 ? DomainSet::npos : used_.prev(d - 1);
    }
  }
  for (const Move& m : grown_)
    if (!m.skipped) add_groups(m.domain, m.groups);
  for (const Move& m : shrunk_) remove_groups(m.domain, m.groups);
  return formed;
}

}  // namespace goodput
