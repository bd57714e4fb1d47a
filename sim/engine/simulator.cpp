#include "sim/engine/simulator.hpp"

#include <algorithm>
#include <stdexcept>

namespace goodput {

EventId Simulator::schedule_at(Time at, EventHandler* handler, std::uint32_t kind,
                               std::uint64_t arg) {
  return schedule_reserved(reserve(), at, handler, kind, arg);
}

EventId Simulator::schedule_reserved(EventId id, Time at, EventHandler* handler, std::uint32_t kind,
                                     std::uint64_t arg) {
  if (at < now_) throw std::logic_error("Simulator: event scheduled in the past");
  if (kind > 0xffff) throw std::logic_error("Simulator: event kind above 65535");
  if (id == 0 || id >= next_id_) throw std::logic_error("Simulator: id was not reserved");
  if (id >= (EventId{1} << 48)) throw std::logic_error("Simulator: more than 2^48 events");
  heap_.push_back(Entry{at, (id << 16) | kind, handler, arg});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
  return id;
}

void Simulator::run_until(Time end) {
  while (!heap_.empty() && heap_.front().time <= end) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Entry e = heap_.back();
    heap_.pop_back();
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
  done_.clear();
  now_ = 0;
  next_id_ = 1;
  fired_ = 0;
}

}  // namespace goodput
