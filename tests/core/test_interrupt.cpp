// The signal watcher (sim/core/interrupt.hpp), in forked children: a signal runs the registered
// cleanups, newest first, and ends the process by that signal; one that comes during a guarded
// step waits for it, and still ends the process by the signal when the step was the last thing
// before exit (never exit status 0).
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "sim/core/interrupt.hpp"

namespace {

// Runs `child` in a forked process with a pipe for its cleanups to write to; returns how the
// child ended (waitpid status) and what came through the pipe.
template <class Child>
std::pair<int, std::string> in_child(Child child) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1]);
    std::_Exit(99);  // the child must end by its signal or exit itself
  }
  ::close(fds[1]);
  std::string out;
  char buf[64];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, buf + n);
  ::close(fds[0]);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return {status, out};
}

void say(int fd, const char* s) {
  const ssize_t n = ::write(fd, s, std::char_traits<char>::length(s));
  (void)n;
}

// A cleanup that, after `delay`, writes `word` to `fd` and returns no line.
std::function<std::string()> saying(int fd, const char* word,
                                    std::chrono::milliseconds delay = {}) {
  return [=] {
    std::this_thread::sleep_for(delay);
    say(fd, word);
    return std::string();
  };
}

}  // namespace

TEST_CASE("a signal runs the cleanups newest first and ends the process by that signal") {
  const auto [status, out] = in_child([](int fd) {
    goodput::watch_interrupts();
    goodput::InterruptCleanup first(saying(fd, "first;"));
    goodput::InterruptCleanup second(saying(fd, "second;"));
    ::kill(::getpid(), SIGTERM);
    for (;;) ::pause();
  });
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(out == "second;first;");
}

TEST_CASE("a signal during the last guarded step before exit still ends the process by it") {
  // The cleanup is slow, so without the exit hook exit(0) would win the race with the watcher.
  const auto [status, out] = in_child([](int fd) {
    goodput::watch_interrupts();
    static auto* const alive =  // never destroyed
        new goodput::InterruptCleanup(saying(fd, "cleaned;", std::chrono::milliseconds(200)));
    (void)alive;
    {
      goodput::InterruptLock step;
      ::kill(::getpid(), SIGINT);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the watcher waits for us
      say(fd, "step;");
    }
    std::exit(0);
  });
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  CHECK(out == "step;cleaned;");
}

TEST_CASE("without a signal the process exits with its own status") {
  const auto [status, out] = in_child([](int fd) {
    goodput::watch_interrupts();
    goodput::InterruptCleanup unused(saying(fd, "cleaned;"));
    std::exit(7);
  });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
  CHECK(out.empty());
}
