#include "models/strategies/ntp_partial_index.hpp"

namespace goodput {

NtpPartialIndex::NtpPartialIndex(const ClusterHealth& health, int tp, const NtpOptions& o)
    : health_(&health), tp_(static_cast<std::uint32_t>(tp)) {
  degree_of_rest_.assign(tp_, 0);
  slot_of_degree_.assign(tp_ + 1, -1);
  for (std::uint32_t r = 1; r < tp_; ++r)
    degree_of_rest_[r] = allowed_degree(o, tp, static_cast<int>(r));
  std::vector<bool> reachable(tp_ + 1, false);
  for (int deg : degree_of_rest_) reachable[static_cast<std::size_t>(deg)] = deg > 0;
  for (int deg = tp; deg >= 1; --deg)
    if (reachable[static_cast<std::size_t>(deg)]) {
      slot_of_degree_[static_cast<std::size_t>(deg)] = static_cast<int>(degrees_.size());
      degrees_.push_back(deg);
    }
  sets_.resize(degrees_.size());
  counts_.resize(degrees_.size());
  rebuild();
}

void NtpPartialIndex::rebuild() {
  const std::uint32_t n = health_->topology().domains();
  for (DomainSet& s : sets_) s.reset(n);
  for (auto& c : counts_) c.reset(n);
  rest_.assign(n, 0);
  for (std::uint32_t d = 0; d < n; ++d) place(d, health_->healthy_in_domain(d) % tp_);
  cursor_.skip_to_end(*health_);
}

void NtpPartialIndex::place(std::uint32_t d, std::uint32_t rest) {
  const int from = slot_of_degree_[static_cast<std::size_t>(degree_of_rest_[rest_[d]])];
  const int to = slot_of_degree_[static_cast<std::size_t>(degree_of_rest_[rest])];
  rest_[d] = static_cast<std::uint16_t>(rest);
  if (from == to) return;
  if (from >= 0) {
    sets_[static_cast<std::size_t>(from)].erase(d);
    counts_[static_cast<std::size_t>(from)].add(d, -1);
  }
  if (to >= 0) {
    sets_[static_cast<std::size_t>(to)].insert(d);
    counts_[static_cast<std::size_t>(to)].add(d, 1);
  }
}

void NtpPartialIndex::sync() {
  if (!cursor_.catch_up(*health_,
                        [this](std::uint32_t d) { place(d, health_->healthy_in_domain(d) % tp_); }))
    rebuild();
}

NtpConfig ntp_short_config(const CapacityIndex& caps, const NtpPartialIndex& index,
                           std::uint32_t limit, NtpFigures& figures, NtpPartialChoice* choice) {
  const std::int64_t full_used = caps.prefix(limit);
  index.choose(limit, static_cast<std::int64_t>(figures.dp()) * figures.pp() - full_used, choice);
  NtpConfig c;
  figures.fill(c, full_used, choice->runs);
  return c;
}

void NtpPartialIndex::choose(std::uint32_t limit, std::int64_t count, NtpPartialChoice* out) const {
  out->runs.clear();
  const int slots = static_cast<int>(sets_.size());
  out->slot = slots;  // every slot taken whole, unless cut below
  out->cut = 0;
  for (int s = 0; s < slots; ++s) {
    if (count <= 0) {
      out->slot = s;
      return;
    }
    const Fenwick<std::int32_t>& c = counts_[static_cast<std::size_t>(s)];
    const std::int64_t here = c.prefix(limit);
    if (here <= count) {
      if (here > 0) out->runs.push_back({degrees_[static_cast<std::size_t>(s)], here});
      count -= here;
      continue;
    }
    // Only the first `count` members below the limit: up to the count-th one.
    std::int32_t before = 0;
    out->slot = s;
    out->cut = c.find(static_cast<std::int32_t>(count), &before) + 1;
    out->runs.push_back({degrees_[static_cast<std::size_t>(s)], count});
    return;
  }
}

void NtpPartialIndex::best(std::uint32_t limit, std::int64_t count,
                           std::vector<NtpPartial>* out) const {
  for (std::size_t i = 0; i < sets_.size() && count > 0; ++i)
    for (std::uint32_t d = sets_[i].next(0); d != DomainSet::npos && d < limit && count > 0;
         d = sets_[i].next(d + 1), --count)
      out->push_back({degrees_[i], d});
}

}  // namespace goodput
