// The reshard kernel's addressing (harness/copy_addressing.hpp, the code the CUDA kernel runs),
// executed on the CPU for every shipped geometry and compared byte for byte with the host
// copy-block maps (apply_blocks), with every access bounds-checked.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "calibrate/harness/copy_addressing.hpp"
#include "calibrate/profile/plan.hpp"
#include "calibrate/profile/reshard_map.hpp"
#include "calibrate/profile/scenario.hpp"
#include "models/strategies/tp_degrees.hpp"

using namespace goodput::calib;
namespace addr = goodput::calib::addr;

namespace {

using Elem = std::uint16_t;  // bf16 bits

struct RunStats {
  std::int64_t out_of_bounds = 0;       // reads or writes outside the buffers
  std::int64_t misaligned = 0;          // vector accesses not aligned to their width
  std::int64_t written_twice = 0;       // destination elements written more than once
  std::int64_t elems = 0;               // elements copied
  std::int64_t vector_elems = 0;        // ... by vector windows of >= 8 bytes
  std::int64_t guarded = 0;             // full windows turned scalar by the source bound
  double min_block_vector_share = 1.0;  // over blocks of >= 8 columns
};

// Runs the kernel's loop (copy_blocks_kernel / copy_block<W>) on the CPU: for each block,
// for each (row, window) the kernel's threads visit, the same Window, the same loads, merge
// and stores.
void run_like_kernel(const std::vector<Elem>& src, std::vector<Elem>& dst,
                     const std::vector<CopyBlock>& blocks, RunStats& st) {
  const auto src_elems = static_cast<int>(src.size());
  const auto dst_elems = static_cast<long long>(dst.size());
  std::vector<std::uint8_t> writes(dst.size(), 0);
  auto read = [&](long long i) -> Elem {
    if (i < 0 || i >= src_elems) {
      ++st.out_of_bounds;
      return 0;
    }
    return src[static_cast<std::size_t>(i)];
  };
  auto write = [&](long long i, Elem v) {
    if (i < 0 || i >= dst_elems) {
      ++st.out_of_bounds;
      return;
    }
    dst[static_cast<std::size_t>(i)] = v;
    if (++writes[static_cast<std::size_t>(i)] > 1) ++st.written_twice;
  };
  for (const CopyBlock& cb : blocks) {
    REQUIRE(addr::describable(src_elems, dst_elems, cb.rows, cb.ncols));
    const addr::BlockDesc b =
        addr::describe_block(cb.src_offset, cb.src_ld, cb.dst_offset, cb.dst_ld, cb.rows, cb.ncols);
    std::int64_t block_vec = 0;
    const unsigned total = static_cast<unsigned>(b.rows) * b.windows;
    for (unsigned idx = 0; idx < total; ++idx) {  // the kernel's grid-stride loop, serially
      const addr::Window w = addr::window_at(b, idx, src_elems);
      if (w.count == b.vec && !w.vector) ++st.guarded;
      if (w.vector) {
        if (w.src_vec % b.vec != 0 || w.dst % b.vec != 0) ++st.misaligned;
        Elem loaded[2 * addr::kMaxVecElems] = {};
        for (int i = 0; i < w.loads * b.vec; ++i) loaded[i] = read(w.src_vec + i);
        for (int i = 0; i < b.vec; ++i) write(w.dst + i, loaded[i + w.shift]);
        if (b.vec * 2 >= 8) block_vec += b.vec;
      } else {
        for (int i = 0; i < w.count; ++i) write(w.dst + i, read(w.src + i));
      }
      st.elems += w.count;
    }
    st.vector_elems += block_vec;
    if (cb.ncols >= 8) {
      st.min_block_vector_share =
          std::min(st.min_block_vector_share,
                   static_cast<double>(block_vec) / static_cast<double>(cb.rows * cb.ncols));
    }
  }
}

std::vector<Elem> random_elems(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Elem> v(static_cast<std::size_t>(n));
  for (Elem& x : v) x = static_cast<Elem>(rng());
  return v;
}

// One kernel job: source and destination sizes and the blocks (as reshard_bench lays it out).
struct Job {
  std::string what;
  std::int64_t src_elems, dst_elems;
  std::vector<CopyBlock> blocks;
};

std::vector<Job> jobs_of(const ReshardPlan& p, std::int64_t rows) {
  std::vector<Job> jobs;
  for (int e = p.n2; e < p.n1; ++e) {
    jobs.push_back(
        {"pack/extra", rows * p.shard_cols(e), rows * p.sent_cols(e), pack_at_extra(p, e, rows)});
    jobs.push_back({"unpack/extra", rows * p.sent_cols(e), rows * p.shard_cols(e),
                    unpack_at_extra(p, e, rows)});
  }
  for (int j = 0; j < p.n2; ++j) {
    if (p.received_cols(j) == 0) continue;
    jobs.push_back({"unpack/core", rows * p.received_cols(j), rows * p.extended_cols(j),
                    unpack_at_core(p, j, rows)});
    jobs.push_back({"pack/core", rows * p.extended_cols(j), rows * p.received_cols(j),
                    pack_at_core(p, j, rows)});
  }
  return jobs;
}

// Byte-for-byte: same random source and destination, host map vs kernel addressing.
RunStats check_job(const Job& job, std::uint64_t seed) {
  const std::vector<Elem> src = random_elems(job.src_elems, seed);
  const std::vector<Elem> dst0 = random_elems(job.dst_elems, seed + 1);
  std::vector<Elem> expected = dst0, got = dst0;
  apply_blocks(src.data(), expected.data(), job.blocks);
  RunStats st;
  run_like_kernel(src, got, job.blocks, st);
  CHECK(got == expected);
  CHECK(st.elems == payload_elems(job.blocks));
  return st;
}

struct Geometry {
  std::string name;
  ModelShape shape;
  int tp;
  std::vector<int> degrees;  // reachable, from the one rule
};

Geometry geometry(std::string name, ModelShape s, int tp) {
  s.name = name;
  return {std::move(name), s, tp, goodput::reachable_tp_degrees(tp, {goodput::TpDegreeRule{}})};
}

// Every geometry we ship: the NTP paper's 480B (TP32 -> TP24), Llama 3 8B / 70B / 405B
// (GQA, gated MLP) at TP8, the built-in standard set, and the shipped scenarios.
std::vector<Geometry> shipped_geometries() {
  std::vector<Geometry> g;
  g.push_back(geometry("ntp-paper-480b", {"", 20480, 128, 128, 81920, false, 16384, 1}, 32));
  g.push_back(geometry("llama3-8b", {"", 4096, 32, 8, 14336, true, 8192, 1}, 8));
  g.push_back(geometry("llama3-70b", {"", 8192, 64, 8, 28672, true, 8192, 1}, 8));
  g.push_back(geometry("llama3-405b", {"", 16384, 128, 8, 53248, true, 8192, 1}, 8));
  g.push_back(geometry("llama3-405b-tp16", {"", 16384, 128, 8, 53248, true, 8192, 1}, 16));
  for (const ProfiledModel& m : standard_models()) {
    g.push_back({m.shape.name, m.shape, m.tp_max, {}});
    for (int t = m.tp_min; t <= m.tp_max; ++t) g.back().degrees.push_back(t);
  }
  for (const char* f : {"default.json", "ntp-paper-nvl32.json", "llama3-16k-h100.json"}) {
    const ScenarioModel sm =
        read_scenario(std::string(GOODPUT_CALIB_SOURCE_DIR) + "/../scenarios/" + f);
    g.push_back({f, sm.model.shape, sm.model.tp_max, sm.tp_degrees});
  }
  return g;
}

}  // namespace

TEST_CASE("window addressing: closed-form cases") {
  // 25 columns (the NTP notes' TP32 -> TP30 move) at vec 4 (8 bytes); rows of 375.
  const addr::BlockDesc b = addr::describe_block(350, 375, 0, 25, 3, 25);
  CHECK(b.vec == 4);
  CHECK(b.windows == 8);
  // Row 0: dst [0, 25): windows [0,4) .. [24,25); src starts at 350 (350 % 4 = 2: shift 2).
  const addr::Window w0 = addr::window_of(b, 0, 0, 3 * 375);
  CHECK(w0.count == 4);
  CHECK(w0.vector);
  CHECK(w0.shift == 2);
  CHECK(w0.src_vec == 348);
  CHECK(w0.loads == 2);
  CHECK(addr::window_of(b, 0, 6, 3 * 375).count == 1);  // dst 24: the scalar tail
  CHECK(addr::window_of(b, 0, 7, 3 * 375).count == 0);  // the spare window of row 0
  // Row 1: dst [25, 50): first window [24, 28) clipped to 3 elements at the head.
  const addr::Window h = addr::window_of(b, 1, 0, 3 * 375);
  CHECK(h.dst == 25);
  CHECK(h.count == 3);
  CHECK_FALSE(h.vector);
  CHECK(h.src == 375 + 350);
  // Source bound: a shifted full window at the very end of the source buffer stays scalar.
  const addr::BlockDesc tight = addr::describe_block(1, 9, 0, 8, 1, 8);  // src [1, 9): shift 1
  const addr::Window last = addr::window_of(tight, 0, 1, 9);             // dst [4, 8) <- src [5, 9)
  CHECK(last.count == 4);
  CHECK(last.shift == 1);
  CHECK_FALSE(last.vector);  // would load [4, 12) from a 9-element buffer
  CHECK(addr::window_of(tight, 0, 1, 12).vector);
  CHECK(addr::window_at(b, 8, 3 * 375).dst == 25);  // flat index 8 = row 1, window 0
  CHECK(addr::choose_vec(32) == 8);
  CHECK(addr::choose_vec(31) == 4);
  CHECK(addr::choose_vec(3) == 1);
  // A 24-column move of an aligned plan (offsets and leading dimensions multiples of 8): full
  // 16-byte vectors, no merge, no scalar edge, though choose_vec(24) alone would say 4.
  const addr::BlockDesc al = addr::describe_block(352, 376, 48, 24, 2, 24);
  CHECK(al.vec == 8);
  for (unsigned row = 0; row < 2; ++row) {
    for (unsigned k = 0; k < al.windows; ++k) {
      const addr::Window w = addr::window_of(al, row, k, 2 * 376);
      if (w.count == 0) continue;  // the spare window of a row
      CHECK(w.count == 8);
      CHECK(w.vector);
      CHECK(w.shift == 0);
      CHECK(w.loads == 1);
    }
  }
  // One misaligned side (source offset 353) falls back to the width rule.
  CHECK(addr::describe_block(353, 376, 48, 24, 2, 24).vec == 4);
}

TEST_CASE("fast division is exact") {
  std::mt19937_64 rng(7);
  for (unsigned d :
       {1U, 2U, 3U, 5U, 7U, 8U, 9U, 49U, 431U, 1000U, 65535U, 65536U, 1U << 20, 2147483647U}) {
    CAPTURE(d);
    const addr::FastDiv f = addr::make_fast_div(d);
    std::int64_t wrong = 0;
    for (unsigned n : {0U, 1U, d - 1, d, d + 1, 2 * d - 1, 2 * d, 2147483647U, 2147483646U}) {
      if (n < (1U << 31)) wrong += addr::fast_div(n, f) != n / d;
    }
    for (int i = 0; i < 20000; ++i) {
      const auto n = static_cast<unsigned>(rng() % (1ULL << 31));
      wrong += addr::fast_div(n, f) != n / d;
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("kernel addressing equals the host maps byte for byte on every shipped geometry") {
  // The addressing is periodic in the row with period 8 / gcd(ld, 8) <= 8 (vec <= 8 elements)
  // while every shipped hidden size is a multiple of 8, so 16 rows run every alignment case the
  // full hidden-size rows do; 13 rows add an incomplete period and a different buffer end.
  std::int64_t jobs = 0, elems = 0, vector_elems = 0, guarded = 0;
  double min_share = 1.0;
  std::uint64_t seed = 1;
  for (const Geometry& g : shipped_geometries()) {
    CAPTURE(g.name);
    CHECK(g.shape.hidden % 8 == 0);
    CHECK(g.degrees.back() == g.tp);
    if (g.degrees.size() < 2) continue;  // no strategy degrades TP: nothing to reshard
    for (std::int64_t cols : reshard_matrix_cols(g.shape)) {
      for (int n2 : g.degrees) {
        if (n2 == g.tp) continue;
        const ReshardPlan p = make_reshard_plan(cols, g.tp, n2);
        for (std::int64_t rows : {std::int64_t{16}, std::int64_t{13}}) {
          for (const Job& job : jobs_of(p, rows)) {
            CAPTURE(cols);
            CAPTURE(n2);
            CAPTURE(rows);
            CAPTURE(job.what);
            const RunStats st = check_job(job, seed++);
            CHECK(st.out_of_bounds == 0);
            CHECK(st.misaligned == 0);
            CHECK(st.written_twice == 0);
            // The bulk of every block moves in vectors of >= 8 bytes.
            CHECK(st.min_block_vector_share >= 0.5);
            ++jobs;
            elems += st.elems;
            vector_elems += st.vector_elems;
            guarded += st.guarded;
            min_share = std::min(min_share, st.min_block_vector_share);
          }
        }
      }
    }
  }
  const double share = static_cast<double>(vector_elems) / static_cast<double>(elems);
  MESSAGE(jobs << " kernel jobs, " << elems << " elements; " << 100.0 * share
               << " % moved by >= 8-byte vectors (worst block " << 100.0 * min_share << " %); "
               << guarded << " full windows kept scalar by the source bound");
  CHECK(share >= 0.9);
}

TEST_CASE("kernel addressing: odd and tiny geometries stay exact and in bounds") {
  std::uint64_t seed = 1000;
  for (std::int64_t cols : {9, 37, 100, 1001, 12000, 12001}) {
    for (int n1 : {2, 3, 9, 32}) {
      if (cols < n1) continue;
      for (int n2 = 1; n2 < n1; n2 += (n1 > 9 ? 5 : 1)) {
        const ReshardPlan p = make_reshard_plan(cols, n1, n2);
        for (std::int64_t rows : {1, 3, 8}) {
          for (const Job& job : jobs_of(p, rows)) {
            CAPTURE(cols);
            CAPTURE(n1);
            CAPTURE(n2);
            CAPTURE(rows);
            CAPTURE(job.what);
            const RunStats st = check_job(job, seed++);
            CHECK(st.out_of_bounds == 0);
            CHECK(st.misaligned == 0);
            CHECK(st.written_twice == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("kernel addressing at full size: the harness's own jobs, first and last rows") {
  // The jobs make_plan() gives the harness (busiest rank per role, rows = hidden), with their
  // real buffer sizes: the first and last 8 rows of every block (all row phases, and the real
  // buffer ends the bound guards), element by element by index: the source element each
  // destination element receives must be the one the host map names.
  std::vector<ProfiledModel> models = standard_models();
  for (const char* f : {"default.json", "ntp-paper-nvl32.json"}) {
    models.push_back(
        read_scenario(std::string(GOODPUT_CALIB_SOURCE_DIR) + "/../scenarios/" + f).model);
  }
  std::int64_t checked = 0, bad = 0;
  for (const ReshardJob& job : make_plan(models, false).reshard) {
    if (job.kernel != "pack" && job.kernel != "unpack") continue;
    const ReshardPlan p = make_reshard_plan(job.cols, job.n1, job.n2);
    std::vector<Job> all = jobs_of(p, job.rows);
    const std::string what = job.kernel + "/" + job.role;
    for (const Job& j : all) {
      if (j.what != what) continue;
      if (payload_elems(j.blocks) * kGradElemBytes != job.bytes) continue;  // not the busiest rank
      for (const CopyBlock& cb : j.blocks) {
        REQUIRE(addr::describable(j.src_elems, j.dst_elems, cb.rows, cb.ncols));
        const addr::BlockDesc b = addr::describe_block(cb.src_offset, cb.src_ld, cb.dst_offset,
                                                       cb.dst_ld, cb.rows, cb.ncols);
        for (long long r = 0; r < b.rows; r = (r == 7 && b.rows > 16) ? b.rows - 8 : r + 1) {
          const long long s0 = cb.src_offset + r * cb.src_ld, d0 = cb.dst_offset + r * cb.dst_ld;
          long long next = d0;  // windows must tile [d0, d0 + ncols) in order
          for (unsigned k = 0; k < b.windows; ++k) {
            const addr::Window w = addr::window_at(b, static_cast<unsigned>(r) * b.windows + k,
                                                   static_cast<int>(j.src_elems));
            if (w.count == 0) continue;
            bad += w.dst != next;
            next = w.dst + w.count;
            for (int i = 0; i < w.count; ++i) {
              const long long from = w.vector ? w.src_vec + i + w.shift : w.src + i;
              bad += from != s0 + (w.dst + i - d0) || from < 0 || from >= j.src_elems;
              bad += w.dst + i < 0 || w.dst + i >= j.dst_elems;
            }
            if (w.vector)
              bad += w.src_vec < 0 ||
                     static_cast<long long>(w.src_vec) + w.loads * b.vec > j.src_elems;
            checked += w.count;
          }
          bad += next != d0 + cb.ncols;
        }
      }
    }
  }
  MESSAGE(checked << " elements of full-size jobs checked by index");
  CHECK(checked > 0);
  CHECK(bad == 0);
}
