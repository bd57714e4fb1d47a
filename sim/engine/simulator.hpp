// The discrete-event engine: a clock and a queue of future events, nothing about GPUs.
// Events are ordered by (time, insertion sequence), so equal-time events fire in the order
// they were scheduled; cancellation is lazy (a cancelled id is skipped when it surfaces, found
// in O(1) from one bit per scheduled event; cancelling a fired event is a no-op).
// A model implements EventHandler and schedules events for itself; the engine calls
// handler->handle(kind, arg) when an event comes due. Time never goes backwards.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sim/engine/time.hpp"

namespace goodput {

class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void handle(std::uint32_t kind, std::uint64_t arg) = 0;
};

using EventId = std::uint64_t;  // the event's insertion sequence number; 0 is never used

class Simulator {
 public:
  Time now() const { return now_; }

  // Schedules handler->handle(kind, arg) at absolute time `at` (>= now()).
  EventId schedule_at(Time at, EventHandler* handler, std::uint32_t kind, std::uint64_t arg = 0);
  EventId schedule_after(Time delay, EventHandler* handler, std::uint32_t kind,
                         std::uint64_t arg = 0) {
    return schedule_at(now_ + delay, handler, kind, arg);
  }
  // Takes the next insertion sequence number now, for an event whose time is only given later
  // by schedule_reserved(): it then orders among equal-time events as if scheduled at reserve().
  // Lets a model keep a long, already sorted stream of future events out of the queue and
  // hand over only the next one. Cancelling a reserved id before it is scheduled is allowed.
  EventId reserve() {
    if (((next_id_ - 1) & 63) == 0) done_.push_back(0);  // a word per 64 ids
    return next_id_++;
  }
  EventId schedule_reserved(EventId id, Time at, EventHandler* handler, std::uint32_t kind,
                            std::uint64_t arg = 0);
  // schedule_reserved() for the next event of sorted stream `slot` (< kStreams), held in the
  // slot beside the queue instead of in it: it fires in the same (time, id) order, without a
  // push and a pop. A slot holds one event; the stream hands over its next once that one fired.
  static constexpr int kStreams = 2;
  EventId schedule_stream(int slot, EventId id, Time at, EventHandler* handler, std::uint32_t kind,
                          std::uint64_t arg = 0);
  // Cancels a pending event; cancelling one that already fired or was cancelled is a no-op.
  void cancel(EventId id) {
    if (id == 0 || id >= next_id_) return;
    mark_done(id);
  }

  // Fires events in order while their time is <= end; leaves now() == end.
  void run_until(Time end);
  // Clears all pending events and resets the clock to zero (keeps allocated memory).
  void reset();

  std::uint64_t events_fired() const { return fired_; }
  std::size_t pending() const {
    return heap_.size() + static_cast<std::size_t>(std::count(live_.begin(), live_.end(), true));
  }

 private:
  // 32 bytes: the id (below 2^48) and the kind (below 2^16) share one word, id in the high
  // bits, so comparing the word orders by id (ids are unique).
  struct Entry {
    Time time;
    std::uint64_t id_kind;
    EventHandler* handler;
    std::uint64_t arg;
    EventId id() const { return id_kind >> 16; }
    std::uint32_t kind() const { return static_cast<std::uint32_t>(id_kind & 0xffff); }
  };
  struct Later {  // a function object, so the heap algorithms inline the comparison
    bool operator()(const Entry& a, const Entry& b) const {
      return a.time != b.time ? a.time > b.time : a.id_kind > b.id_kind;
    }
  };

  bool done(EventId id) const { return (done_[(id - 1) >> 6] >> ((id - 1) & 63)) & 1; }
  void mark_done(EventId id) { done_[(id - 1) >> 6] |= std::uint64_t{1} << ((id - 1) & 63); }

  Time now_ = 0;
  EventId next_id_ = 1;
  std::uint64_t fired_ = 0;
  std::vector<Entry> heap_;
  std::vector<std::uint64_t> done_;       // a bit per id (from 1): fired or cancelled
  std::array<Entry, kStreams> stream_{};  // schedule_stream's slots, those live_
  std::array<bool, kStreams> live_{};
};

}  // namespace goodput
