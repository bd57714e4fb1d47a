// Goal seek over several workers (goodput-mpi: the ranks). Bisection asks one value at a time;
// while it waits, idle workers compute the values it may ask next: every value of the bisection
// tree under what is known so far, nearest first (found by replaying bisect_smallest over the
// outcomes known and either outcome of each value not yet known). The search itself, and all it
// records, is the sequential one: get(v) returns exactly the point a sequential seek computes for
// v, and a value it never asks is computed and dropped. A failure computing a value is thrown by
// get() of that value only. Speculation still running when the seek ends is waited for (at most
// one point per worker) by the destructor. When no thread can be created, get() computes the
// value it is asked on the caller's thread, and nothing more is speculated.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "sim/sweep/sweep_report.hpp"

namespace goodput {

class SeekPrefetch {
 public:
  // run(v, worker): v's point on worker `worker` (0 .. workers - 1; one call per worker at a
  // time); meets(point): whether it meets the target (what bisection is told).
  SeekPrefetch(long lo, long hi, int workers, std::function<SweepPoint(long, int)> run,
               std::function<bool(const SweepPoint&)> meets);
  ~SeekPrefetch();
  SeekPrefetch(const SeekPrefetch&) = delete;
  SeekPrefetch& operator=(const SeekPrefetch&) = delete;

  SweepPoint get(long v);  // blocks until v's point is computed
  int started() const;     // values computed or being computed so far (for tests)

 private:
  struct Outcome {
    SweepPoint point;
    bool meets = false;
    std::exception_ptr error;
  };
  // The values bisection may ask next, nearest first, at most `count` (lock held).
  std::vector<long> wanted(std::size_t count) const;
  Outcome evaluate(long v, int worker) const;  // run_ and meets_, an exception kept
  void start(long v);   // on a free worker (lock held, one free); a thread, if one can be made
  void start_wanted();  // fills the free workers (lock held)

  long lo_, hi_;
  std::function<SweepPoint(long, int)> run_;
  std::function<bool(const SweepPoint&)> meets_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<int> free_workers_;
  std::set<long> running_;
  std::map<long, Outcome> done_;
  std::set<long> taken_;  // values get() returned (their points moved out)
  std::vector<std::thread> threads_;
  bool no_threads_ = false;  // a thread could not be created: no more speculation
};

}  // namespace goodput
