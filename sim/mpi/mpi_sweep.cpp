#include "sim/mpi/mpi_sweep.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <list>
#include <stdexcept>
#include <vector>

#include "models/scenario/scenario_loader.hpp"
#include "sim/core/error.hpp"
#include "sim/run/run_plan.hpp"
#include "sim/sweep/point_record.hpp"

namespace goodput::mpi {

namespace {

constexpr int kWork = 1, kResult = 2, kStop = 3;

void send_bytes(const std::string& bytes, int rank, int tag) {
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, rank, tag, MPI_COMM_WORLD);
}

// Receives the message a probe found (status says its source and tag).
std::string receive_probed(const MPI_Status& probed) {
  int count = 0;
  MPI_Get_count(&probed, MPI_BYTE, &count);
  std::string bytes(static_cast<std::size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_BYTE, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  return bytes;
}

std::string to_wire(const Json& j) {
  const std::vector<std::uint8_t> b = Json::to_cbor(j);
  return std::string(b.begin(), b.end());
}

Json from_wire(const std::string& s) {
  return Json::from_cbor(s.begin(), s.end());
}

// Waits for the next message from rank 0 without spinning a core (other ranks may share it).
MPI_Status wait_for_rank0() {
  auto pause = std::chrono::microseconds(50);
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (flag) return st;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
}

// Sends a reply to rank 0 and waits until it has left, sleeping between tests: a large reply
// is not taken before rank 0 polls for it (every few milliseconds while it waits for
// results), and a blocking MPI_Send would spin this rank's core meanwhile.
void send_reply(const std::string& bytes) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, kResult, MPI_COMM_WORLD,
            &request);
  auto pause = std::chrono::microseconds(50);
  for (;;) {
    int sent = 0;
    MPI_Test(&request, &sent, MPI_STATUS_IGNORE);
    if (sent) return;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

std::string where_of(int rank) {
  return "rank " + std::to_string(rank);
}

}  // namespace

Dispatcher::Dispatcher(int ranks) : ranks_(ranks) {
  if (ranks_ > 1) comm_ = std::thread([this] { loop(); });
}

Dispatcher::~Dispatcher() {
  shutdown();
}

void Dispatcher::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  if (comm_.joinable()) comm_.join();
  for (int r = 1; r < ranks_; ++r)
    send_bytes({}, r, kStop);  // no unit is out: the sweep joined its workers
  std::lock_guard<std::mutex> lock(mutex_);
  stopped_ = true;
}

std::string Dispatcher::call(int rank, std::string unit) {
  std::unique_lock<std::mutex> lock(mutex_);
  const std::uint64_t id = next_id_++;
  outbox_.push_back({rank, id, std::move(unit)});
  cv_.wait(lock, [&] { return replies_.count(id) > 0; });
  std::string reply = std::move(replies_[id]);
  replies_.erase(id);
  return reply;
}

// The only thread of rank 0 that calls MPI while the sweep runs: sends queued units, and
// receives results from any rank, polling with a short back-off (results take seconds).
void Dispatcher::loop() {
  auto pause = std::chrono::microseconds(50);
  int out = 0;  // units sent and not answered
  // Units being sent: each request with its buffer (a std::list: buffers must not move), its
  // rank and id.
  struct Sending {
    MPI_Request request;
    std::string unit;
    int rank;
    std::uint64_t id;
  };
  std::list<Sending> in_transit;
  for (;;) {
    std::deque<Outgoing> sends;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (out == 0)
        cv_.wait_for(lock, std::chrono::milliseconds(20),
                     [&] { return stopping_ || !outbox_.empty(); });
      if (stopping_ && out == 0 && outbox_.empty()) {
        // Every unit was answered, so every send has completed: release the requests.
        for (Sending& u : in_transit) MPI_Wait(&u.request, MPI_STATUS_IGNORE);
        return;
      }
      sends.swap(outbox_);
      for (const Outgoing& o : sends) sent_[o.rank].push_back(o.id);
    }
    // Non-blocking: a unit queued behind the one a rank is computing is not received until
    // that point is done, and a blocking send would spin this thread (and a core) meanwhile.
    for (Outgoing& o : sends) {
      in_transit.push_back({MPI_REQUEST_NULL, std::move(o.unit), o.rank, o.id});
      Sending& u = in_transit.back();
      MPI_Isend(u.unit.data(), static_cast<int>(u.unit.size()), MPI_BYTE, o.rank, kWork,
                MPI_COMM_WORLD, &u.request);
      ++out;
    }
    // A unit whose rank is computing an older one (kUnitsInFlight) is not received before that
    // one is answered, and its send may not complete until then (the receiver's progress):
    // only a unit its rank is waiting for now (its oldest unanswered) is worth polling for
    // often. Polling fast for the queued one too woke this thread ~2,600 times a second for
    // the whole sweep (bench/RESULTS.md, issue 32 item 5). sent_ is this thread's alone.
    bool awaited = false;
    for (auto it = in_transit.begin(); it != in_transit.end();) {
      int sent = 0;
      MPI_Test(&it->request, &sent, MPI_STATUS_IGNORE);
      if (sent) {
        it = in_transit.erase(it);
        continue;
      }
      const auto& pending = sent_[it->rank];  // empty once the unit is answered
      awaited = awaited || (!pending.empty() && pending.front() == it->id);
      ++it;
    }
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
      std::string reply = receive_probed(st);
      --out;
      {
        // A rank answers its units in the order it got them (MPI keeps the order of messages
        // between two ranks), so its oldest unanswered unit is the one answered.
        std::lock_guard<std::mutex> lock(mutex_);
        auto& pending = sent_[st.MPI_SOURCE];
        replies_[pending.front()] = std::move(reply);
        pending.pop_front();
      }
      cv_.notify_all();
      pause = std::chrono::microseconds(50);
    } else if (sends.empty() && out > 0) {
      std::this_thread::sleep_for(pause);
      // While a rank waits for a unit in transit it may need this rank's progress (large
      // messages): poll more often then.
      pause = std::min(pause * 2, std::chrono::microseconds(awaited ? 250 : 5000));
    }
  }
}

PointRunner Dispatcher::runner(int threads, const SeedPolicy& seeds) {
  return [this, threads, seeds](const Scenario& scenario, int worker) -> SweepPoint {
    if (worker == 0 || ranks_ == 1) return run_point(scenario, threads, seeds);
    const int rank = 1 + (worker - 1) % (ranks_ - 1);
    const Json unit = {{"file", scenario.file},
                       {"scenario", scenario.input},  // not `resolved`: it omits /job/model
                       {"threads", threads},
                       {"seeds_auto", seeds ? Json{{"ci_target", seeds->ci_target},
                                                   {"tie_margin", seeds->tie_margin},
                                                   {"max_seeds", seeds->max_seeds}}
                                            : Json(nullptr)}};
    const Json reply = from_wire(call(rank, to_wire(unit)));
    if (reply.is_object() && reply.contains("error")) {
      const std::string where = where_of(rank);
      if (reply.value("input", false))  // the message already names the file and pointer
        throw InputError("", "", reply.at("message").get<std::string>() + " (" + where + ")");
      throw std::runtime_error(where + ": " + reply.at("message").get<std::string>());
    }
    // Checked as a record is, then rebuilt as a resumed point is (point_record.hpp): same
    // plan, the runs as computed.
    if (const auto bad = check_point_runs(reply, scenario, record_max_seeds(scenario, seeds)))
      throw std::runtime_error(where_of(rank) + ": a malformed reply: " + bad->pointer + ": " +
                               bad->why);
    SweepPoint pt = point_from_record(scenario, point_record_from_json(reply));
    return pt;
  };
}

void serve_points() {
  for (;;) {
    const MPI_Status st = wait_for_rank0();
    const std::string bytes = receive_probed(st);
    if (st.MPI_TAG == kStop) return;
    Json reply;
    try {
      const Json unit = from_wire(bytes);
      const Scenario scenario =
          parse_scenario(unit.at("scenario"), unit.at("file").get<std::string>());
      SeedPolicy seeds;
      if (const Json& a = unit.at("seeds_auto"); !a.is_null())
        seeds = SeedRule{a.at("ci_target").get<double>(), a.at("tie_margin").get<double>(),
                         a.at("max_seeds").get<int>()};
      const SweepPoint pt = run_point(scenario, unit.at("threads").get<int>(), seeds);
      reply = {{"seeds", pt.plan.scenario.seeds},
               {"pilot", pilot_to_json(pt.plan.pilot)},
               {"runs", runs_to_json(pt.report.runs)}};
    } catch (const InputError& e) {
      reply = {{"error", true}, {"input", true}, {"message", e.what()}};
    } catch (const std::exception& e) {
      reply = {{"error", true}, {"message", e.what()}};
    }
    send_reply(to_wire(reply));
  }
}

}  // namespace goodput::mpi
