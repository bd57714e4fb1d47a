// Sweeps spread over MPI ranks (goodput-mpi). Rank 0 runs the ordinary sweep
// (sweep_runner.hpp: resume, streamed point records, the final writer) with a PointRunner
// that hands each point to a rank: worker 0 of the sweep computes on rank 0, and each other
// rank is fed by kUnitsInFlight workers, so it always has its next point queued while it
// computes one (rank 0 rebuilds a returned point's report meanwhile, instead of the rank
// idling until that is done); a worker takes the next unfinished point as soon as it returns
// one (dynamic scheduling). A remote point travels as its scenario input (file plus overrides); its
// runs come back lossless (CBOR doubles) and rank 0 rebuilds the point from them exactly as
// resuming from a record does, so every output byte equals the single-process sweep's. Only rank 0
// touches the output directory; other ranks read nothing but files the scenario itself names
// (traces). Requires MPI_THREAD_SERIALIZED: all MPI calls on rank 0 are made by one thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "sim/sweep/sweep_runner.hpp"

namespace goodput::mpi {

// Rank 0's side: one communication thread owns every MPI call; sweep workers queue a unit for
// their rank and wait for the answer. Stops the workers (ranks > 0) on shutdown().
class Dispatcher {
 public:
  explicit Dispatcher(int ranks);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  static constexpr int kUnitsInFlight = 2;  // per rank > 0

  int ranks() const { return ranks_; }
  // The sweep's workers: rank 0's own, plus kUnitsInFlight per other rank.
  int workers() const { return 1 + kUnitsInFlight * (ranks_ - 1); }
  // A runner for SweepOptions/SweepArgs: `threads` Monte Carlo threads per point on every rank.
  PointRunner runner(int threads, const SeedPolicy& seeds);
  // Ends the communication thread and tells every other rank to stop (idempotent).
  void shutdown();

 private:
  std::string call(int rank, std::string unit);  // sends a unit to `rank`, returns its reply
  void loop();

  struct Outgoing {
    int rank;
    std::uint64_t id;
    std::string unit;
  };
  int ranks_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::uint64_t next_id_ = 0;
  std::deque<Outgoing> outbox_;                    // units to send
  std::map<int, std::deque<std::uint64_t>> sent_;  // per rank: units sent, oldest first
  std::map<std::uint64_t, std::string> replies_;   // unit id -> reply received
  bool stopping_ = false, stopped_ = false;
  std::thread comm_;
};

// Ranks > 0: serve units from rank 0 until it says stop.
void serve_points();

}  // namespace goodput::mpi
