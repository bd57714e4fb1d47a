#include "sim/sweep/seek_prefetch.hpp"

#include <stdexcept>
#include <system_error>
#include <utility>

#include "sim/core/parallel_for.hpp"
#include "sim/sweep/goal_seek.hpp"

namespace goodput {

namespace {

// Thrown by the replay's oracle at the first value whose outcome is neither known nor assumed.
struct Unknown {
  long value;
  bool failed;  // its evaluation failed: the search would stop there
};

}  // namespace

SeekPrefetch::SeekPrefetch(long lo, long hi, int workers, std::function<SweepPoint(long, int)> run,
                           std::function<bool(const SweepPoint&)> meets)
    : lo_(lo), hi_(hi), run_(std::move(run)), meets_(std::move(meets)) {
  if (workers < 1) throw std::logic_error("SeekPrefetch: no worker");
  for (int w = workers; w-- > 0;) free_workers_.push_back(w);  // worker 0 taken first
}

SeekPrefetch::~SeekPrefetch() {
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
}

int SeekPrefetch::started() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(running_.size() + done_.size());
}

std::vector<long> SeekPrefetch::wanted(std::size_t count) const {
  // Breadth first over assumptions: each path replays the bisection with the outcomes known
  // and those it assumes, up to its first unknown value, then branches on both outcomes of it.
  std::vector<long> out;
  std::vector<std::map<long, bool>> paths{{}};
  constexpr std::size_t kMaxPaths = 4096;
  for (std::size_t p = 0; p < paths.size() && out.size() < count && p < kMaxPaths; ++p) {
    const std::map<long, bool> assumed = paths[p];
    try {
      bisect_smallest(lo_, hi_, [&](long v) {
        if (const auto d = done_.find(v); d != done_.end()) {
          if (d->second.error) throw Unknown{v, true};
          return d->second.meets;
        }
        if (const auto a = assumed.find(v); a != assumed.end()) return a->second;
        throw Unknown{v, false};
      });
    } catch (const Unknown& u) {
      if (u.failed) continue;
      bool listed = false;
      for (long w : out) listed = listed || w == u.value;
      if (!listed) out.push_back(u.value);
      for (bool meets : {true, false}) {
        std::map<long, bool> next = assumed;
        next[u.value] = meets;
        paths.push_back(std::move(next));
      }
    }
  }
  return out;
}

SeekPrefetch::Outcome SeekPrefetch::evaluate(long v, int worker) const {
  Outcome o;
  try {
    o.point = run_(v, worker);
    o.meets = meets_(o.point);
  } catch (...) {
    o.error = std::current_exception();
  }
  return o;
}

void SeekPrefetch::start(long v) {
  const int worker = free_workers_.back();
  free_workers_.pop_back();
  running_.insert(v);
  try {
    threads_.push_back(make_thread([this, v, worker] {
      Outcome o = evaluate(v, worker);
      std::lock_guard<std::mutex> lock(mutex_);
      running_.erase(v);
      done_.emplace(v, std::move(o));
      free_workers_.push_back(worker);
      cv_.notify_all();
    }));
  } catch (const std::system_error&) {  // no thread to be had: get() computes what it asks
    running_.erase(v);
    free_workers_.push_back(worker);
    no_threads_ = true;
  }
}

void SeekPrefetch::start_wanted() {
  if (free_workers_.empty() || no_threads_) return;
  for (long v : wanted(free_workers_.size() + running_.size())) {
    if (free_workers_.empty() || no_threads_) return;
    if (!running_.count(v) && !done_.count(v)) start(v);
  }
}

SweepPoint SeekPrefetch::get(long v) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!taken_.insert(v).second) throw std::logic_error("SeekPrefetch: a value asked twice");
  for (;;) {
    if (const auto d = done_.find(v); d != done_.end()) {
      if (d->second.error) std::rethrow_exception(d->second.error);
      SweepPoint point = std::move(d->second.point);  // its outcome stays, for the replay
      start_wanted();
      return point;
    }
    start_wanted();  // v first: it is the first value the replay does not know
    if (!running_.count(v) && !free_workers_.empty()) start(v);
    if (!running_.count(v) && !free_workers_.empty() && no_threads_) {  // here, then
      const int worker = free_workers_.back();
      free_workers_.pop_back();
      running_.insert(v);
      lock.unlock();
      Outcome o = evaluate(v, worker);
      lock.lock();
      running_.erase(v);
      done_.emplace(v, std::move(o));
      free_workers_.push_back(worker);
      continue;
    }
    cv_.wait(lock);
  }
}

}  // namespace goodput
