// The one way goodput spreads independent work over threads: task(i) for every i in
// [0, count), indices handed out in increasing order to up to `threads` threads (the caller's
// thread is one of them). A task taking (i, worker) also learns which worker runs it (0 is the
// caller's thread; the MPI sweep maps workers onto ranks). Tasks must not share mutable state;
// each writes its own result slot, so the outcome does not depend on the thread count. The
// first exception stops the handing out of further indices and is rethrown once every thread
// has finished. `done(i)` (optional) runs under a lock after task i succeeds, e.g. for progress.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace goodput {

template <class Task, class Done>
void parallel_for(int count, int threads, Task&& task, Done&& done) {
  std::atomic<int> next{0};
  std::exception_ptr failure;
  std::mutex mutex;
  auto worker = [&](int w) {
    for (int i = next++; i < count; i = next++) {
      try {
        if constexpr (std::is_invocable_v<Task&, int, int>)
          task(i, w);
        else
          task(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
        next = count;
        return;
      }
      std::lock_guard<std::mutex> lock(mutex);
      done(i);
    }
  };
  const int n = std::max(1, std::min(threads, count));
  std::vector<std::thread> pool;
  for (int w = 1; w < n; ++w) pool.emplace_back(worker, w);
  worker(0);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

template <class Task>
void parallel_for(int count, int threads, Task&& task) {
  parallel_for(count, threads, std::forward<Task>(task), [](int) {});
}

}  // namespace goodput
