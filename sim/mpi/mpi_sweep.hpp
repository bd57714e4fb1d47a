// Sweeps spread over MPI ranks (goodput-mpi). Rank 0 runs the ordinary sweep
// (sweep_runner.hpp: resume, streamed point records, the final writer) with a PointRunner
// that hands each point to a free rank: worker w of the sweep is rank w, rank 0 computes its
// own share, and a rank takes the next unfinished point as soon as it returns one (dynamic
// scheduling). A remote point travels as its scenario input (file plus overrides); its runs come
// back lossless (CBOR doubles) and rank 0 rebuilds the point from them exactly as resuming from a
// record does, so every output byte equals the single-process sweep's. Only rank 0 touches the
// output directory; other ranks read nothing but files the scenario itself names (traces).
// Requires MPI_THREAD_SERIALIZED: all MPI calls on rank 0 are made by one thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "sim/report/sweep_runner.hpp"

namespace goodput::mpi {

// Rank 0's side: one communication thread owns every MPI call; sweep workers queue a unit for
// their rank and wait for the answer. Stops the workers (ranks > 0) on shutdown().
class Dispatcher {
 public:
  explicit Dispatcher(int ranks);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  int ranks() const { return ranks_; }
  // A runner for SweepOptions/SweepArgs: `threads` Monte Carlo threads per point on every rank.
  PointRunner runner(int threads, const SeedPolicy& seeds);
  // Ends the communication thread and tells every other rank to stop (idempotent).
  void shutdown();

 private:
  std::string call(int rank, std::string unit);  // sends a unit to `rank`, returns its reply
  void loop();

  int ranks_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::pair<int, std::string>> outbox_;  // (rank, unit) to send
  std::map<int, std::string> replies_;              // rank -> reply received
  bool stopping_ = false, stopped_ = false;
  std::thread comm_;
};

// Ranks > 0: serve units from rank 0 until it says stop.
void serve_points();

}  // namespace goodput::mpi
