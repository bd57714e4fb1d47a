// The one way goodput spreads independent work over threads: task(i) for every i in
// [0, count), indices handed out in increasing order to up to `threads` threads (the caller's
// thread is one of them). A task taking (i, worker) also learns which worker runs it (0 is the
// caller's thread; the MPI sweep maps workers onto ranks). Tasks must not share mutable state;
// each writes its own result slot, so the outcome does not depend on the thread count. The
// first exception stops the handing out of further indices and is rethrown once every thread
// has finished. `done(i)` (optional) runs under a lock after task i succeeds, e.g. for progress.
// A thread the system refuses to create (std::system_error: out of processes or memory) is not
// fatal: the threads made so far, the caller's at least, share the work, and the outcome is the
// same; a warning on stderr says so once.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace goodput {

// For tests: how many more threads make_thread may create; < 0 (the default): no limit. It
// starts from $GOODPUT_TEST_THREAD_LIMIT, so a CLI test can make creation fail.
inline std::atomic<long>& test_thread_budget() {
  static std::atomic<long> left{[] {
    const char* e = std::getenv("GOODPUT_TEST_THREAD_LIMIT");
    return e && *e ? std::atol(e) : -1L;
  }()};
  return left;
}

// Creates a thread running f, as std::thread does; past the test budget it throws what the
// system's refusal throws (std::system_error, resource_unavailable_try_again).
template <class F>
std::thread make_thread(F&& f) {
  std::atomic<long>& left = test_thread_budget();
  for (long n = left.load(); n >= 0;) {
    if (n == 0)
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                              "thread limit for tests");
    if (left.compare_exchange_weak(n, n - 1)) break;
  }
  return std::thread(std::forward<F>(f));
}

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
  pool.reserve(static_cast<std::size_t>(n));
  for (int w = 1; w < n; ++w) {
    try {
      pool.push_back(make_thread([&worker, w] { worker(w); }));
    } catch (const std::system_error& e) {
      static std::once_flag warned;
      std::call_once(warned, [&] {
        std::fprintf(stderr, "warning: could not start thread %d of %d (%s); going on with %d\n",
                     w + 1, n, e.what(), w);
      });
      break;
    }
  }
  worker(0);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

template <class Task>
void parallel_for(int count, int threads, Task&& task) {
  parallel_for(count, threads, std::forward<Task>(task), [](int) {});
}

}  // namespace goodput
