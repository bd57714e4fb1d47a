// Property tests of the layout's indexes: DomainSet against a plain vector<bool>, and JobLayout's
// free/used domain sets and grow/shrink order against a brute-force scan, on random fault
// sequences over the three cluster presets' shapes.
// CapacityIndex (the NTP fast path's Fenwick tree) against prefix sums of healthy / tp.
// refill_in_place against assign() of each domain's own groups.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "models/job/capacity_index.hpp"
#include "models/job/domain_set.hpp"
#include "models/job/job_layout.hpp"
#include "models/job/tag_scan.hpp"
#include "models/topology/topology.hpp"

using namespace goodput;

namespace {

std::uint32_t brute_next(const std::vector<bool>& v, std::uint32_t i) {
  for (std::size_t k = i; k < v.size(); ++k)
    if (v[k]) return static_cast<std::uint32_t>(k);
  return DomainSet::npos;
}

std::uint32_t brute_prev(const std::vector<bool>& v, std::uint32_t i) {
  for (std::size_t k = std::min<std::size_t>(i, v.size() - 1) + 1; k-- > 0;)
    if (v[k]) return static_cast<std::uint32_t>(k);
  return DomainSet::npos;
}

// Every index check of the layout against its definition.
void check_indexes(JobLayout& layout, std::uint32_t domains) {
  const DomainSet& free = layout.free_domains();
  const DomainSet& used = layout.used_domains();
  std::int64_t total = 0;
  for (std::uint32_t d = 0; d < domains; ++d) {
    REQUIRE(free.contains(d) == (layout.capacity(d) > layout.assigned(d)));
    REQUIRE(used.contains(d) == (layout.assigned(d) > 0));
    total += layout.assigned(d);
  }
  REQUIRE(layout.total_assigned() == total);
}

// Random health changes and NTP-style assigns, shared by the property tests below (the draws
// in the order each test made them): a GPU or a node fails (its GPUs into `gpus` when given),
// or a failed component picked at random is repaired.
void fail_random(const Topology& topo, ClusterHealth& health, std::mt19937_64& rng,
                 std::vector<std::uint32_t>& active, std::vector<std::uint32_t>* gpus) {
  const auto kind = rng() % 2 ? ComponentKind::Gpu : ComponentKind::Node;
  active.push_back(topo.id(kind, static_cast<std::uint32_t>(rng() % topo.count(kind))));
  if (gpus) gpus->clear();
  health.fail(active.back(), gpus);
}

void repair_random(ClusterHealth& health, std::mt19937_64& rng,
                   std::vector<std::uint32_t>& active) {
  const auto k = rng() % active.size();
  health.repair(active[k], nullptr);
  active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
}

// As NTP does: a random domain of `a` set directly, maybe with a partial group; `b` the same.
void assign_random(JobLayout& a, JobLayout& b, std::mt19937_64& rng, std::uint32_t domains,
                   std::int64_t per_domain, int tp) {
  const auto d = static_cast<std::uint32_t>(rng() % domains);
  const auto groups = static_cast<std::uint32_t>(rng() % (per_domain + 1));
  const auto partial = static_cast<std::uint32_t>(rng() % static_cast<std::uint64_t>(tp));
  a.assign(d, groups, rng() % 2 ? partial : 0);
  b.assign(d, a.assigned(d), a.partial(d));
}

}  // namespace

TEST_CASE("tag_scan finds the first and last index where both arrays are 0, as a scan does") {
  // Entries drawn so that zeros sit next to 1s (the classic zero test flags a 1 above a 0), next
  // to 0x8000 and 0xFFFF (a top bit alone, every bit), in runs and alone, and a zero in one
  // array faces a nonzero in the other; every [lo, hi) range of each pair, so every alignment
  // to the four-entry words and every tail length is searched.
  std::mt19937_64 rng(7);
  const std::uint16_t values[] = {0, 1, 2, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 3};
  std::vector<std::uint16_t> tags, down;
  int found = 0;
  for (int round = 0; round < 400; ++round) {
    tags.resize(1 + rng() % 23);
    down.resize(tags.size());
    const auto zero_share = rng() % 4;  // none, a few, half, most
    const auto down_share = rng() % 3;  // all up, a few down, half down
    for (auto& t : tags)
      t = rng() % 4 < zero_share ? 0 : values[1 + rng() % (std::size(values) - 1)];
    for (auto& d : down)
      d = rng() % 4 < down_share ? values[1 + rng() % (std::size(values) - 1)] : 0;
    if (round % 5 == 0) tags[rng() % tags.size()] = 0;  // at least one zero tag
    const auto n = static_cast<std::uint32_t>(tags.size());
    for (std::uint32_t lo = 0; lo <= n; ++lo)
      for (std::uint32_t hi = lo; hi <= n; ++hi) {
        CAPTURE(round);
        CAPTURE(lo);
        CAPTURE(hi);
        std::uint32_t first = hi, last = tag_scan::npos;
        for (std::uint32_t i = lo; i < hi; ++i)
          if (tags[i] == 0 && down[i] == 0) {
            if (first == hi) first = i;
            last = i;
          }
        found += first != hi;
        REQUIRE(tag_scan::first_zero_pair(tags.data(), down.data(), lo, hi) == first);
        REQUIRE(tag_scan::last_zero_pair(tags.data(), down.data(), lo, hi) == last);
      }
  }
  CHECK(found > 10000);  // ranges with an entry found, and (above) ranges without
  // Each value alone as the only zero of a word and beside one: the per-entry bits exactly.
  for (std::uint16_t v : values)
    for (std::uint32_t z = 0; z < 4; ++z) {
      std::uint16_t w[4] = {v, v, v, v};
      w[z] = 0;
      const std::uint64_t bits = tag_scan::zero_tags(tag_scan::four_tags(w));
      std::uint64_t want = 0;
      for (std::uint32_t j = 0; j < 4; ++j)
        if (w[j] == 0) want |= std::uint64_t{1} << (16 * j + 15);
      CAPTURE(v);
      CAPTURE(z);
      REQUIRE(bits == want);
    }
}

TEST_CASE("DomainSet next/prev agree with a linear scan") {
  std::mt19937_64 rng(7);
  for (std::uint32_t n : {1u, 2u, 63u, 64u, 65u, 200u, 4095u, 4097u, 70000u, 300000u}) {
    DomainSet s;
    s.reset(n);
    std::vector<bool> ref(n, false);
    CHECK(s.next(0) == DomainSet::npos);
    CHECK(s.prev(n) == DomainSet::npos);
    for (int step = 0; step < 3000; ++step) {
      const auto i = static_cast<std::uint32_t>(rng() % n);
      const bool on = rng() % 3 != 0 || n < 100;  // sparse and dense phases
      if (step % 1000 < 500 || on) {
        s.set(i, on);
        ref[i] = on;
      } else {
        s.erase(i);
        ref[i] = false;
      }
      const auto q = static_cast<std::uint32_t>(rng() % (n + 2));
      REQUIRE(s.next(q) == (q >= n ? DomainSet::npos : brute_next(ref, q)));
      REQUIRE(s.prev(q) == brute_prev(ref, q));
      REQUIRE(s.contains(i) == ref[i]);
    }
    for (std::uint32_t i = 0; i < n; ++i) s.erase(i);
    CHECK(s.next(0) == DomainSet::npos);
    CHECK(s.prev(n - 1) == DomainSet::npos);
  }
}

TEST_CASE("DomainSet::fill and assign_range make the members they name, as inserting each would") {
  std::mt19937_64 rng(8);
  for (std::uint32_t n : {0u, 1u, 63u, 64u, 65u, 4095u, 4096u, 4097u, 262144u, 262145u, 300000u}) {
    CAPTURE(n);
    DomainSet filled, inserted;
    filled.reset(n);
    inserted.reset(n);
    if (n > 0) filled.insert(n / 2);  // fill() overwrites what was there
    filled.fill();
    for (std::uint32_t i = 0; i < n; ++i) inserted.insert(i);
    // Then the same random erases and inserts: every query agrees.
    for (int step = 0; step < 2000 && n > 0; ++step) {
      const auto i = static_cast<std::uint32_t>(rng() % n);
      const bool on = step % 500 < 100 || rng() % 4 == 0;
      filled.set(i, on);
      inserted.set(i, on);
      const auto q = static_cast<std::uint32_t>(rng() % (n + 2));
      REQUIRE(filled.next(q) == inserted.next(q));
      REQUIRE(filled.prev(q) == inserted.prev(q));
      REQUIRE(filled.contains(i) == inserted.contains(i));
    }
    if (n == 0) {
      CHECK(filled.next(0) == DomainSet::npos);
      continue;
    }
    // assign_range: exactly [lo, hi), as erasing everything and inserting each would leave it.
    for (int k = 0; k < 20; ++k) {
      auto lo = static_cast<std::uint32_t>(rng() % (n + 1));
      auto hi = static_cast<std::uint32_t>(rng() % (n + 1));
      if (k == 0) lo = 0;
      if (k == 1) hi = n;
      if (lo > hi) std::swap(lo, hi);
      filled.assign_range(lo, hi);
      for (std::uint32_t i = 0; i < n; ++i) inserted.set(i, i >= lo && i < hi);
      for (int q = 0; q < 50; ++q) {
        const auto i = static_cast<std::uint32_t>(rng() % (n + 2));
        REQUIRE(filled.next(i) == inserted.next(i));
        REQUIRE(filled.prev(i) == inserted.prev(i));
      }
      for (std::uint32_t i : {lo, hi, lo + 1, hi - 1, 0u, n - 1})
        if (i < n) REQUIRE(filled.contains(i) == inserted.contains(i));
      // Then edits on top of it agree too.
      for (int e = 0; e < 30; ++e) {
        const auto i = static_cast<std::uint32_t>(rng() % n);
        const bool on = rng() % 2 == 0;
        filled.set(i, on);
        inserted.set(i, on);
        const auto q = static_cast<std::uint32_t>(rng() % (n + 2));
        REQUIRE(filled.next(q) == inserted.next(q));
        REQUIRE(filled.prev(q) == inserted.prev(q));
      }
    }
    // Erasing everything empties it at every level.
    for (std::uint32_t i = 0; i < n; ++i) filled.erase(i);
    CHECK(filled.next(0) == DomainSet::npos);
    CHECK(filled.prev(n) == DomainSet::npos);
  }
}

TEST_CASE("JobLayout's indexes and grow/shrink order match a brute-force scan on random faults") {
  struct Case {
    ClusterShape shape;
    std::vector<int> tps;
  };
  const std::vector<Case> cases = {
      {{"hgx-8", "H100", 8, 1, 4, 16, 150}, {8, 4, 3}},
      {{"nvl32", "B200", 4, 8, 8, 16, 24}, {32, 16, 24, 7}},
      {{"gb200-nvl72", "GB200", 4, 18, 18, 18, 10}, {64, 72, 32, 48}},
  };
  std::mt19937_64 rng(2026);
  for (const auto& c : cases) {
    const Topology topo(c.shape);
    for (int tp : c.tps) {
      CAPTURE(c.shape.preset);
      CAPTURE(tp);
      ClusterHealth health(topo);
      JobLayout layout(health, tp);
      const std::uint32_t domains = topo.domains();
      const std::int64_t per_domain = topo.gpus_per_domain() / static_cast<std::uint32_t>(tp);
      const std::int64_t job = per_domain * domains * 7 / 8;  // about one domain in eight spare
      layout.retarget(job, {});
      std::vector<std::uint32_t> active;  // components currently failed
      std::vector<std::uint32_t> gpus, hit_domains;
      std::vector<GroupHit> hits;
      for (int step = 0; step < 1500; ++step) {
        const auto op = rng() % 10;
        if (op < 4 || active.empty()) {  // a fault: a GPU, node or (rarely) a whole domain
          const auto kind = rng() % 20 == 0 ? ComponentKind::Domain
                            : rng() % 2     ? ComponentKind::Gpu
                                            : ComponentKind::Node;
          const auto comp = topo.id(kind, static_cast<std::uint32_t>(rng() % topo.count(kind)));
          gpus.clear();
          hits.clear();
          health.fail(comp, &gpus);
          active.push_back(comp);
          layout.release_down(gpus, &hits);
          hit_domains.clear();
          for (const auto& h : hits)
            if (std::find(hit_domains.begin(), hit_domains.end(), h.domain) == hit_domains.end())
              hit_domains.push_back(h.domain);
          layout.refill_in_place(hit_domains);
        } else if (op < 7) {  // a repair
          const auto k = rng() % active.size();
          health.repair(active[k], nullptr);
          active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
        } else if (op < 8) {  // a strategy sets one domain directly (as NTP does), maybe with a
                              // partial group
          const auto d = static_cast<std::uint32_t>(rng() % domains);
          const auto groups = static_cast<std::uint32_t>(rng() % (per_domain + 1));
          const auto partial =
              tp > 1 ? static_cast<std::uint32_t>(rng() % static_cast<std::uint64_t>(tp)) : 0u;
          layout.assign(d, groups, rng() % 2 ? partial : 0);
        } else {  // grow or shrink towards a target; predict the result by scanning
          const std::int64_t target =
              job -
              static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(per_domain * 4 + 1)) +
              static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(per_domain * 4 + 1));
          std::vector<std::uint32_t> expect(domains);
          for (std::uint32_t d = 0; d < domains; ++d) expect[d] = layout.assigned(d);
          std::int64_t need = target - layout.total_assigned();
          for (std::uint32_t d = 0; d < domains && need > 0; ++d) {
            const std::uint32_t cap = layout.capacity(d);
            const std::uint32_t free = cap > expect[d] ? cap - expect[d] : 0;
            const auto add = static_cast<std::uint32_t>(std::min<std::int64_t>(free, need));
            expect[d] += add;
            need -= add;
          }
          for (std::uint32_t d = domains; d-- > 0 && need < 0;) {
            const auto remove =
                static_cast<std::uint32_t>(std::min<std::int64_t>(expect[d], -need));
            expect[d] -= remove;
            need += remove;
          }
          layout.retarget(target, {});
          for (std::uint32_t d = 0; d < domains; ++d) REQUIRE(layout.assigned(d) == expect[d]);
        }
        check_indexes(layout, domains);
      }
      // Every GPU in use is up, and the in-use count matches.
      std::int64_t in_use = 0;
      for (std::uint32_t g = 0; g < topo.gpus(); ++g)
        if (layout.in_use(g)) {
          CHECK(health.up(g));
          ++in_use;
        }
      CHECK(in_use == layout.in_use_gpus());
    }
  }
}

TEST_CASE("JobLayout rebuilds its indexes when the health it reads is reset") {
  const Topology topo(ClusterShape{"hgx-8", "H100", 8, 1, 4, 16, 6});
  ClusterHealth health(topo);
  JobLayout layout(health, 8);
  layout.retarget(4, {});
  std::vector<std::uint32_t> gpus;
  health.fail(topo.id(ComponentKind::Node, 5), &gpus);
  health.fail(topo.id(ComponentKind::Node, 4), &gpus);
  CHECK_FALSE(layout.free_domains().contains(5));
  health.reset();  // node 5 is healthy again, behind the layout's back
  CHECK(layout.free_domains().contains(5));
  CHECK(layout.retarget(6, {}) == 6);
}

TEST_CASE(
    "CapacityIndex: total, prefix sums and cut-off domain match a scan of healthy / tp on random "
    "faults") {
  const Topology topo(ClusterShape{"hgx-8", "H100", 8, 1, 4, 16, 300});
  const Topology nvl(ClusterShape{"nvl32", "B200", 4, 8, 8, 16, 40});
  std::mt19937_64 rng(14);
  for (const Topology* t : {&topo, &nvl}) {
    for (int tp : {8, 4, 3}) {
      ClusterHealth health(*t);
      CapacityIndex caps(health, tp);
      std::vector<std::uint32_t> active;
      for (int step = 0; step < 2000; ++step) {
        if (active.empty() || rng() % 5 < 3) {
          fail_random(*t, health, rng, active, nullptr);
        } else {
          repair_random(health, rng, active);
        }
        if (rng() % 3 != 0) continue;  // let changes pile up between syncs too
        caps.sync();
        std::vector<std::int64_t> prefix{0};
        for (std::uint32_t d = 0; d < t->domains(); ++d) {
          REQUIRE(caps.cap(d) == health.healthy_in_domain(d) / static_cast<std::uint32_t>(tp));
          prefix.push_back(prefix.back() + caps.cap(d));
        }
        REQUIRE(caps.total() == prefix.back());
        // Prefix sums: a few fixed limits asked again and again (the tree keeps the last one
        // asked up to date through later changes), one at random, the whole.
        const std::uint32_t n = t->domains();
        for (std::uint32_t limit :
             {n - n / 7, n / 2, n - n / 7, static_cast<std::uint32_t>(rng() % n), n, n + 5})
          REQUIRE(caps.prefix(limit) == prefix[std::min(limit, n)]);
        if (caps.total() == 0) continue;
        const std::int64_t k =
            1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(caps.total()));
        std::int64_t before = -1;
        const std::uint32_t c = caps.cutoff(k, &before);
        REQUIRE(prefix[c] < k);
        REQUIRE(prefix[c + 1] >= k);
        REQUIRE(before == prefix[c]);
      }
    }
  }
}

TEST_CASE(
    "JobLayout: a domain's slots take its healthy GPUs in index order, from empty or regrown") {
  // Which slot each GPU serves is seen through the hits of single-GPU faults.
  const Topology topo({"nvl32", "B200", 4, 8, 8, 16, 4});
  const std::uint32_t per = topo.gpus_per_domain();
  const std::uint32_t d = 1;
  for (const int tp : {32, 16, 7}) {
    for (const bool one_down : {false, true}) {
      const std::uint32_t healthy = per - (one_down ? 1 : 0);
      for (std::uint32_t groups = 0; groups <= healthy / static_cast<std::uint32_t>(tp); ++groups) {
        for (const std::uint32_t partial : {0u, 3u}) {
          for (const bool regrown : {false, true}) {
            CAPTURE(tp);
            CAPTURE(one_down);
            CAPTURE(groups);
            CAPTURE(partial);
            CAPTURE(regrown);
            ClusterHealth health(topo);
            const std::uint32_t down_gpu = topo.domain_gpus(d)[2];
            if (one_down) health.fail(topo.id(ComponentKind::Gpu, down_gpu), nullptr);
            JobLayout layout(health, tp);
            if (regrown) layout.assign(d, 1);  // then re-formed from a domain already in use
            const std::uint32_t placed = layout.assign(d, groups, partial);
            CHECK(placed == groups);
            const std::uint32_t want_partial =
                partial < static_cast<std::uint32_t>(tp) && partial <= healthy - placed * tp
                    ? partial
                    : 0;
            CHECK(layout.partial(d) == want_partial);
            const std::uint32_t used = placed * static_cast<std::uint32_t>(tp) + want_partial;
            CHECK(layout.in_use_gpus() == used);
            std::uint32_t rank = 0;  // among the domain's healthy GPUs
            for (std::uint32_t i = 0; i < per; ++i) {
              const std::uint32_t g = topo.domain_gpus(d)[i];
              if (one_down && g == down_gpu) {
                CHECK_FALSE(layout.in_use(g));
                continue;
              }
              const std::uint32_t r = rank++;
              CHECK(layout.in_use(g) == (r < used));
              if (r >= used) continue;
              // Copy the layout, fail GPU g there, and read which slot it served.
              JobLayout probe = layout;
              std::vector<GroupHit> hits;
              const std::vector<std::uint32_t> down{g};
              probe.release_down(down, &hits);
              REQUIRE(hits.size() == 1);
              CHECK(hits[0].slot == r / static_cast<std::uint32_t>(tp));
            }
          }
        }
      }
    }
  }
}

// refill_in_place skips a domain whose slots are all full (issue 32 item 3); the skip must
// change nothing: a layout refilled with it matches one that assigns every given domain its own
// groups again, GPU by GPU, on random faults, repairs and direct assigns (partial groups too).
TEST_CASE("JobLayout::refill_in_place matches assign() of each domain's own groups") {
  const std::vector<std::pair<ClusterShape, int>> cases = {
      {{"hgx-8", "H100", 8, 1, 4, 16, 40}, 8},
      {{"hgx-8", "H100", 8, 1, 4, 16, 40}, 3},
      {{"nvl32", "B200", 4, 8, 8, 16, 12}, 24},
      {{"gb200-nvl72", "GB200", 4, 18, 18, 18, 6}, 64},
  };
  std::mt19937_64 rng(32);
  for (const auto& c : cases) {
    const ClusterShape& shape = c.first;
    const int tp = c.second;
    CAPTURE(shape.preset);  // not a structured binding: clang cannot capture one in CAPTURE
    CAPTURE(tp);
    const Topology topo(shape);
    ClusterHealth health(topo);
    JobLayout fast(health, tp), slow(health, tp);
    const std::uint32_t domains = topo.domains();
    const std::int64_t per_domain = topo.gpus_per_domain() / static_cast<std::uint32_t>(tp);
    fast.retarget(per_domain * domains * 3 / 4, {});
    slow.retarget(per_domain * domains * 3 / 4, {});
    std::vector<std::uint32_t> active, gpus, some;
    std::vector<GroupHit> hits_fast, hits_slow;
    for (int step = 0; step < 2000; ++step) {
      const auto op = rng() % 8;
      if (op < 3 || active.empty()) {
        fail_random(topo, health, rng, active, &gpus);
        hits_fast.clear();
        hits_slow.clear();
        fast.release_down(gpus, &hits_fast);
        slow.release_down(gpus, &hits_slow);
        REQUIRE(hits_fast.size() == hits_slow.size());
      } else if (op < 5) {
        repair_random(health, rng, active);
      } else if (op < 6) {  // as NTP does: a domain set directly, maybe with a partial group
        const auto d = static_cast<std::uint32_t>(rng() % domains);
        const auto groups = static_cast<std::uint32_t>(rng() % (per_domain + 1));
        const auto partial = static_cast<std::uint32_t>(rng() % static_cast<std::uint64_t>(tp));
        fast.assign(d, groups, partial);
        slow.assign(d, groups, partial);
      } else {  // refill a random handful of domains (intact, short and emptied ones alike)
        some.clear();
        for (int k = 0; k < 6; ++k) some.push_back(static_cast<std::uint32_t>(rng() % domains));
        fast.refill_in_place(some);
        for (std::uint32_t d : some) slow.assign(d, slow.assigned(d), slow.partial(d));
      }
      REQUIRE(fast.in_use_gpus() == slow.in_use_gpus());
      REQUIRE(fast.total_assigned() == slow.total_assigned());
    }
    for (std::uint32_t d = 0; d < domains; ++d) {
      REQUIRE(fast.assigned(d) == slow.assigned(d));
      REQUIRE(fast.partial(d) == slow.partial(d));
    }
    for (std::uint32_t g = 0; g < topo.gpus(); ++g) REQUIRE(fast.in_use(g) == slow.in_use(g));
  }
}

namespace {

// Every piece of the two layouts' state a later operation reads: each GPU's tag, each domain's
// groups and partial degree, the totals and both indexes.
void require_same_layout(JobLayout& a, JobLayout& b, const Topology& topo) {
  for (std::uint32_t g = 0; g < topo.gpus(); ++g) REQUIRE(a.tag(g) == b.tag(g));
  const std::uint32_t slots = topo.gpus_per_domain() / static_cast<std::uint32_t>(a.tp()) + 1;
  for (std::uint32_t d = 0; d < topo.domains(); ++d) {
    for (std::uint32_t k = 0; k < slots; ++k) REQUIRE(a.slot_count(d, k) == b.slot_count(d, k));
    REQUIRE(a.assigned(d) == b.assigned(d));
    REQUIRE(a.partial(d) == b.partial(d));
    REQUIRE(a.free_domains().contains(d) == b.free_domains().contains(d));
    REQUIRE(a.used_domains().contains(d) == b.used_domains().contains(d));
  }
  REQUIRE(a.total_assigned() == b.total_assigned());
  REQUIRE(a.in_use_gpus() == b.in_use_gpus());
}

}  // namespace

TEST_CASE(
    "a run's first grow (every domain empty and whole) leaves the state the general grow "
    "does, and both react alike to later faults") {
  const std::vector<std::pair<ClusterShape, int>> cases = {
      {{"hgx-8", "H100", 8, 1, 4, 16, 40}, 8},
      {{"hgx-8", "H100", 8, 1, 4, 16, 40}, 3},
      {{"nvl32", "B200", 4, 8, 8, 16, 12}, 24},
      {{"nvl32", "B200", 4, 8, 8, 16, 12}, 7},
      {{"gb200-nvl72", "GB200", 4, 18, 18, 18, 6}, 64},
      {{"gb200-nvl72", "GB200", 4, 18, 18, 18, 6}, 16},
  };
  std::mt19937_64 rng(33);
  for (const auto& c : cases) {
    const ClusterShape& shape = c.first;
    const int tp = c.second;
    CAPTURE(shape.preset);
    CAPTURE(tp);
    const Topology topo(shape);
    const std::uint32_t domains = topo.domains();
    const std::int64_t per_domain = topo.gpus_per_domain() / static_cast<std::uint32_t>(tp);
    // Targets: part of one domain, an uneven share of the cluster, all of it, more than it has.
    for (const std::int64_t target :
         {std::int64_t{1}, per_domain * domains * 2 / 3 + (per_domain > 1 ? 1 : 0),
          per_domain * domains, per_domain * domains + 5}) {
      CAPTURE(target);
      ClusterHealth health(topo);
      JobLayout fresh(health, tp), general(health, tp);
      // The general path: a group placed and taken away again leaves every domain empty, but
      // the layout no longer fresh.
      general.assign(0, 1);
      general.assign(0, 0);
      REQUIRE(fresh.retarget(target, {}) == general.retarget(target, {}));
      require_same_layout(fresh, general, topo);
      std::vector<std::uint32_t> active, gpus, dirty;
      std::vector<GroupHit> hits_fresh, hits_general;
      for (int step = 0; step < 300; ++step) {
        if (active.empty() || rng() % 5 < 3) {
          fail_random(topo, health, rng, active, &gpus);
          hits_fresh.clear();
          hits_general.clear();
          fresh.release_down(gpus, &hits_fresh);
          general.release_down(gpus, &hits_general);
          REQUIRE(hits_fresh.size() == hits_general.size());
          dirty.clear();
          for (std::size_t k = 0; k < hits_fresh.size(); ++k) {
            REQUIRE(hits_fresh[k].domain == hits_general[k].domain);
            REQUIRE(hits_fresh[k].slot == hits_general[k].slot);
            dirty.push_back(hits_fresh[k].domain);
          }
          REQUIRE(fresh.retarget(target, dirty) == general.retarget(target, dirty));
        } else {
          repair_random(health, rng, active);
          REQUIRE(fresh.retarget(target, {}) == general.retarget(target, {}));
        }
      }
      require_same_layout(fresh, general, topo);
      // After a reset the fresh path is taken again (and gives the same first layout).
      health.reset();
      fresh.reset();
      general.reset();
      general.assign(0, 1);
      general.assign(0, 0);
      fresh.retarget(target, {});
      general.retarget(target, {});
      require_same_layout(fresh, general, topo);
    }
  }
}

TEST_CASE("shrink's release of a whole domain leaves the state assign(d, 0, 0) does") {
  const std::vector<std::pair<ClusterShape, int>> cases = {
      {{"hgx-8", "H100", 8, 1, 4, 16, 40}, 8},
      {{"hgx-8", "H100", 8, 1, 4, 16, 40}, 3},
      {{"nvl32", "B200", 4, 8, 8, 16, 12}, 16},
      {{"gb200-nvl72", "GB200", 4, 18, 18, 18, 6}, 64},
  };
  std::mt19937_64 rng(34);
  for (const auto& c : cases) {
    const ClusterShape& shape = c.first;
    const int tp = c.second;
    CAPTURE(shape.preset);
    CAPTURE(tp);
    const Topology topo(shape);
    ClusterHealth health(topo);
    // `shrunk` shrinks through retarget(); `assigned` the same domains, in shrink()'s order
    // (highest index first), through assign() alone.
    JobLayout shrunk(health, tp), assigned(health, tp);
    const std::uint32_t domains = topo.domains();
    const std::int64_t per_domain = topo.gpus_per_domain() / static_cast<std::uint32_t>(tp);
    const std::int64_t job = per_domain * domains * 3 / 4;
    shrunk.retarget(job, {});
    assigned.retarget(job, {});
    std::vector<std::uint32_t> active, gpus;
    std::vector<GroupHit> hits;
    int releases = 0;
    for (int step = 0; step < 1500; ++step) {
      const auto op = rng() % 8;
      if (op < 3 || active.empty()) {
        fail_random(topo, health, rng, active, &gpus);
        shrunk.release_down(gpus, &hits);
        assigned.release_down(gpus, &hits);
      } else if (op < 5) {
        repair_random(health, rng, active);
      } else if (op < 6) {
        assign_random(shrunk, assigned, rng, domains, per_domain, tp);
      } else {  // grow back (the same code on both), then shrink by a few domains' worth
        shrunk.retarget(job, {});
        assigned.retarget(job, {});
        const std::int64_t target =
            shrunk.total_assigned() -
            static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(per_domain * 6 + 1));
        std::int64_t need = assigned.total_assigned() - target;
        for (std::uint32_t d = domains; d-- > 0 && need > 0;) {
          if (assigned.assigned(d) == 0) continue;
          const auto remove =
              static_cast<std::uint32_t>(std::min<std::int64_t>(assigned.assigned(d), need));
          releases += remove == assigned.assigned(d) && assigned.partial(d) == 0;
          assigned.assign(d, assigned.assigned(d) - remove, assigned.partial(d));
          need -= remove;
        }
        shrunk.retarget(target, {});
      }
      require_same_layout(shrunk, assigned, topo);
    }
    CHECK(releases > 50);  // the release path ran, not only assign()'s
  }
}

// dp_drop's relayout: as many whole replicas of `unit` groups as the layout can form. The one
// pass (retarget_whole) against its definition, retarget to the target and then to the whole
// multiples of what that formed, on random faults, repairs and NTP-style assigns (partial
// groups), over the presets' shapes and TP degrees that fit one or several groups per domain.
TEST_CASE("retarget_whole leaves the state retarget and then retarget to whole units do") {
  const std::vector<std::pair<ClusterShape, int>> cases = {
      {{"hgx-8", "H100", 8, 1, 4, 16, 40}, 8},
      {{"hgx-8", "H100", 8, 1, 4, 16, 40}, 3},
      {{"nvl32", "B200", 4, 8, 8, 16, 12}, 16},
      {{"gb200-nvl72", "GB200", 4, 18, 18, 18, 6}, 64},
  };
  std::mt19937_64 rng(35);
  for (const auto& c : cases) {
    const ClusterShape& shape = c.first;
    const int tp = c.second;
    CAPTURE(shape.preset);
    CAPTURE(tp);
    const Topology topo(shape);
    const std::uint32_t domains = topo.domains();
    const std::int64_t per_domain = topo.gpus_per_domain() / static_cast<std::uint32_t>(tp);
    for (const std::int64_t unit : {std::int64_t{1}, std::int64_t{3}, std::int64_t{5}}) {
      CAPTURE(unit);
      ClusterHealth health(topo);
      JobLayout one(health, tp), two(health, tp);
      // The job: whole units filling most of the cluster, so that faults leave it short.
      const std::int64_t job = per_domain * domains * 7 / 8 / unit * unit;
      std::vector<std::uint32_t> active, gpus, dirty;
      std::vector<GroupHit> hits_one, hits_two;
      int grew_and_shrank = 0;  // steps where the two-step form grew, then shrank
      for (int step = 0; step < 600; ++step) {
        const auto op = rng() % 8;
        dirty.clear();
        if (op < 4 || active.empty()) {
          fail_random(topo, health, rng, active, &gpus);
          hits_one.clear();
          hits_two.clear();
          one.release_down(gpus, &hits_one);
          two.release_down(gpus, &hits_two);
          for (const GroupHit& h : hits_one) dirty.push_back(h.domain);
        } else if (op < 7) {
          repair_random(health, rng, active);
        } else {
          assign_random(one, two, rng, domains, per_domain, tp);
        }
        const std::int64_t target = rng() % 4 == 0 ? job - unit : job;
        const std::int64_t before = two.total_assigned();
        const std::int64_t formed = two.retarget(target, dirty);
        two.retarget(formed / unit * unit, {});
        grew_and_shrank += formed > before && formed % unit != 0;
        REQUIRE(one.retarget_whole(target, dirty, unit) == formed);
        require_same_layout(one, two, topo);
      }
      if (unit > 1) CHECK(grew_and_shrank > 10);  // where the one pass may skip a domain
    }
  }
}
