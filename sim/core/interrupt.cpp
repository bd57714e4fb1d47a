#include "sim/core/interrupt.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

namespace goodput {

namespace {

// Never destroyed: the watcher may still be waiting while the process exits.
struct Registry {
  std::mutex io;        // the interrupt lock (InterruptLock)
  std::mutex cleanups;  // guards `list`; held while the cleanups run
  std::vector<std::pair<unsigned long, std::function<std::string()>>> list;
  unsigned long next_id = 1;
  sigset_t set{};                   // the watched signals
  std::atomic<bool> caught{false};  // the watcher has taken one
};

Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

// The signals to watch: those whose action is not "ignore". An inherited ignore (nohup, a
// shell's background job) stays in force: Linux queues a blocked signal even when its action is
// to ignore it, so sigwait would otherwise take it.
sigset_t watched() {
  sigset_t set;
  sigemptyset(&set);
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction now {};
    if (sigaction(s, nullptr, &now) == 0 && now.sa_handler != SIG_IGN) sigaddset(&set, s);
  }
  return set;
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

void write_err(const std::string& s) {
  const char* p = s.data();
  std::size_t left = s.size();
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

[[noreturn]] void watch(sigset_t set) {
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  registry().caught = true;
  // From here a second signal ends the process at once (default action, on this thread, the
  // only one that does not block it), even while a cleanup is under way.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (const int s : {SIGINT, SIGTERM, SIGHUP})
    if (sigismember(&set, s)) sigaction(s, &dfl, nullptr);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);

  Registry& r = registry();
  r.io.lock();  // never released: no guarded step starts or is cut into
  std::string lines;
  {
    std::lock_guard<std::mutex> hold(r.cleanups);
    for (auto it = r.list.rbegin(); it != r.list.rend(); ++it) {
      const std::string line = it->second();
      if (!line.empty()) lines += "goodput: " + line + "\n";
    }
  }
  if (!lines.empty())
    write_err(std::string(isatty(STDERR_FILENO) ? "\n" : "") + "goodput: interrupted (" +
              signal_name(sig) + ")\n" + lines);
  std::raise(sig);
  std::_Exit(128 + sig);  // not reached: the default action ends the process
}

// At exit (main returned, or exit()): a signal taken or waiting ends the process by that signal,
// as it would have a moment earlier, not by the exit status. The watcher is left to do it: it
// takes the interrupt lock, runs the cleanups and raises the signal, while this thread waits
// (with the signals blocked, pause() never returns).
void finish_by_signal_at_exit() {
  Registry& r = registry();
  bool waiting = r.caught;
  sigset_t pending;
  if (!waiting && sigpending(&pending) == 0)
    for (const int s : {SIGINT, SIGTERM, SIGHUP})
      if (sigismember(&r.set, s) && sigismember(&pending, s)) waiting = true;
  if (!waiting) return;
  for (;;) ::pause();
}

// Blocks the watched signals in the calling thread; false when there are none or it failed.
bool block(sigset_t* set) {
  *set = watched();
  return !sigisemptyset(set) && pthread_sigmask(SIG_BLOCK, set, nullptr) == 0;
}

}  // namespace

void block_interrupts() {
  sigset_t set;
  block(&set);
}

void watch_interrupts() {
  static bool started = false;
  if (started) return;
  sigset_t set;
  if (!block(&set)) return;
  try {
    registry().set = set;
    std::thread(watch, set).detach();
    started = true;
    std::atexit(finish_by_signal_at_exit);
  } catch (const std::system_error&) {  // no thread: signals act as before
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  }
}

InterruptLock::InterruptLock() {
  registry().io.lock();
}

InterruptLock::~InterruptLock() {
  registry().io.unlock();
}

InterruptCleanup::InterruptCleanup(std::function<std::string()> cleanup) {
  Registry& r = registry();
  std::lock_guard<std::mutex> hold(r.cleanups);
  id_ = r.next_id++;
  r.list.emplace_back(id_, std::move(cleanup));
}

InterruptCleanup::~InterruptCleanup() {
  Registry& r = registry();
  std::lock_guard<std::mutex> hold(r.cleanups);
  for (auto it = r.list.begin(); it != r.list.end(); ++it)
    if (it->first == id_) {
      r.list.erase(it);
      return;
    }
}

}  // namespace goodput
