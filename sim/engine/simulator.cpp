#include "sim/engine/simulator.hpp"

#include <algorithm>
#include <stdexcept>

namespace goodput {

EventId Simulator::schedule_at(Time at, EventHandler* handler, std::uint32_t kind,
                               std::uint64_t arg) {
  return schedule_reserved(reserve(), at, handler, kind, arg);
}

namespace {
void check_event(Time at, Time now, std::uint32_t kind, EventId id, EventId next_id) {
  if (at < now) throw std::logic_error("Simulator: event scheduled in the past");
  if (kind > 0xffff) throw std::logic_error("Simulator: event kind above 65535");
  if (id == 0 || id >= next_id) throw std::logic_error("Simulator: id was not reserved");
  if (id >= (EventId{1} << 48)) throw std::logic_error("Simulator: more than 2^48 events");
}
}  // namespace

EventId Simulator::schedule_reserved(EventId id, Time at, EventHandler* handler, std::uint32_t kind,
                                     std::uint64_t arg) {
  check_event(at, now_, kind, id, next_id_);
  heap_.push_back(Entry{at, (id << 16) | kind, handler, arg});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
  return id;
}

EventId Simulator::schedule_stream(int slot, EventId id, Time at, EventHandler* handler,
                                   std::uint32_t kind, std::uint64_t arg) {
  check_event(at, now_, kind, id, next_id_);
  if (slot < 0 || slot >= kStreams) throw std::logic_error("Simulator: no such stream slot");
  const auto s = static_cast<std::size_t>(slot);
  if (live_[s]) throw std::logic_error("Simulator: stream slot already holds an event");
  stream_[s] = Entry{at, (id << 16) | kind, handler, arg};
  live_[s] = true;
  return id;
}

void Simulator::run_until(Time end) {
  for (;;) {
    // The earliest of the queue's top and the live stream slots, by the queue's own order.
    const Entry* next = heap_.empty() ? nullptr : &heap_.front();
    int from = -1;
    for (int s = 0; s < kStreams; ++s)
      if (live_[static_cast<std::size_t>(s)] &&
          (!next || Later{}(*next, stream_[static_cast<std::size_t>(s)]))) {
        next = &stream_[static_cast<std::size_t>(s)];
        from = s;
      }
    if (!next || next->time > end) break;
    Entry e;
    if (from < 0) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      e = heap_.back();
      heap_.pop_back();
    } else {
      e = *next;
      live_[static_cast<std::size_t>(from)] = false;
    }
    const EventId id = e.id();
    if (done(id)) continue;  // cancelled
    mark_done(id);
    now_ = e.time;
    ++fired_;
    e.handler->handle(e.kind(), e.arg);
  }
  if (end > now_) now_ = end;
}

void Simulator::reset() {
  heap_.clear();
  live_ = {};
  done_.clear();
  now_ = 0;
  next_id_ = 1;
  fired_ = 0;
}

}  // namespace goodput
