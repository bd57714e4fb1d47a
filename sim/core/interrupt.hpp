// Ctrl-C, kill and a closed terminal without leftovers.
//
// Contract: watch_interrupts(), called first in main while no other thread exists, blocks
// SIGINT, SIGTERM and SIGHUP in the calling thread (so in every thread started after it) and
// starts a watcher thread that waits for them. On one, the watcher takes the interrupt lock
// (so it never cuts into a step held under InterruptLock), runs the registered cleanups, newest
// first, prints the lines they return on stderr, and ends the process by the same signal with its
// default action: the exit status is 128 + the signal number, as a shell expects. It never
// releases the lock, so no guarded step starts after it. A signal that comes as the process
// ends (during its last guarded write, say) still ends it so: at exit, a signal taken or
// pending is left to the watcher, never reported as exit status 0.
//
// A cleanup (InterruptCleanup, registered for its lifetime) removes only what its owner made
// for a while (output_dir.hpp: an unpublished staging folder and the lock file). goodput-mpi
// blocks the signals before MPI_Init, so MPI's own threads inherit the mask, and rank 0 alone
// watches them: the other ranks do not end first (mpirun would then SIGKILL rank 0 in the
// middle of its cleanup). On SIGKILL the process dies at once, and the next writer of the same
// path recognises and removes the leftovers.
#pragma once

#include <functional>
#include <mutex>
#include <string>

namespace goodput {

void watch_interrupts();
// Only blocks them, in the calling thread and every thread it starts after: for a process that
// leaves them to another (goodput-mpi's ranks but 0, which end when the launcher ends the job).
void block_interrupts();

// Holds the interrupt lock: a cleanup never runs while one lives. Whatever a cleanup removes
// must be added to only under it (a staging folder's files: text_util.hpp), or the removal can
// race a file being added and leave the folder behind.
class InterruptLock {
 public:
  InterruptLock();
  ~InterruptLock();
  InterruptLock(const InterruptLock&) = delete;
  InterruptLock& operator=(const InterruptLock&) = delete;
};

// Registers `cleanup` until destroyed (create and destroy it outside an InterruptLock, or
// inside one: either is safe). The cleanup runs on the watcher thread under the interrupt
// lock and returns a line for the user ("" for none); it must not throw.
class InterruptCleanup {
 public:
  explicit InterruptCleanup(std::function<std::string()> cleanup);
  ~InterruptCleanup();
  InterruptCleanup(const InterruptCleanup&) = delete;
  InterruptCleanup& operator=(const InterruptCleanup&) = delete;

 private:
  unsigned long id_;
};

}  // namespace goodput
