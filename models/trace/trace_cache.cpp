// read_trace_shared: the process-wide cache of parsed traces. A trace is read by the work
// budget, by every plan (each break-even step of `goodput run`, each sensitivity evaluation,
// each sweep point, on several threads): all of them share one parse of one file.
#include <sys/stat.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

#include "models/trace/trace.hpp"

namespace goodput::trace {

namespace {

// The file as given and as it is now (a rewrite changes the size, the modification time or the
// inode), and how it is read.
struct Key {
  std::string path, format;
  std::int64_t lanl_system = -1;
  double time_offset_hours = 0;
  std::string hosts_file, host_pattern, time_zone, start;
  std::int64_t host_index_offset = 0;
  std::uint64_t device = 0, inode = 0;
  std::int64_t size = 0, mtime_s = 0, mtime_ns = 0, ctime_s = 0, ctime_ns = 0;
  // The host map file as it is now (a rewritten map maps hosts anew): size and times, or -1.
  std::int64_t hosts_size = -1, hosts_mtime_s = 0, hosts_mtime_ns = 0;
  auto tie() const {
    return std::tie(path, format, lanl_system, time_offset_hours, hosts_file, host_pattern,
                    time_zone, start, host_index_offset, device, inode, size, mtime_s, mtime_ns,
                    ctime_s, ctime_ns, hosts_size, hosts_mtime_s, hosts_mtime_ns);
  }
  bool operator<(const Key& o) const { return tie() < o.tie(); }
};

struct Entry {
  std::mutex parsing;                  // held while the file is parsed
  std::shared_ptr<const Trace> trace;  // null until parsed
  std::uint64_t used = 0;              // when last asked for (Cache::clock)
};

// A sweep over a few trace files keeps all of them; beyond this, the least recently used goes.
constexpr std::size_t kMaxTraces = 8;

struct Cache {
  std::mutex mutex;
  std::map<Key, std::shared_ptr<Entry>> entries;
  std::uint64_t clock = 0;
};

Cache& cache() {
  static Cache c;
  return c;
}

}  // namespace

std::shared_ptr<const Trace> read_trace_shared(const std::string& path, const TraceFormat& format,
                                               const ReadOptions& options) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)  // read_trace says why
    return std::make_shared<const Trace>(read_trace(path, format, options));
  Key key;
  key.path = path;
  key.format = std::string(format.name);
  key.lanl_system = options.lanl_system ? *options.lanl_system : -1;
  key.time_offset_hours = options.time_offset_hours;
  key.hosts_file = options.hosts_file;
  key.host_pattern = options.host_pattern;
  key.time_zone = options.time_zone;
  key.start = options.start;
  key.host_index_offset = options.host_index_offset;
  struct stat hosts {};
  if (!options.hosts_file.empty() && ::stat(options.hosts_file.c_str(), &hosts) == 0) {
    key.hosts_size = static_cast<std::int64_t>(hosts.st_size);
    key.hosts_mtime_s = static_cast<std::int64_t>(hosts.st_mtim.tv_sec);
    key.hosts_mtime_ns = static_cast<std::int64_t>(hosts.st_mtim.tv_nsec);
  }
  key.device = static_cast<std::uint64_t>(st.st_dev);
  key.inode = static_cast<std::uint64_t>(st.st_ino);
  key.size = static_cast<std::int64_t>(st.st_size);
  key.mtime_s = static_cast<std::int64_t>(st.st_mtim.tv_sec);
  key.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_nsec);
  key.ctime_s = static_cast<std::int64_t>(st.st_ctim.tv_sec);
  key.ctime_ns = static_cast<std::int64_t>(st.st_ctim.tv_nsec);
  std::shared_ptr<Entry> entry;
  {
    Cache& c = cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    auto& slot = c.entries[key];
    if (!slot) slot = std::make_shared<Entry>();
    slot->used = ++c.clock;
    entry = slot;
    while (c.entries.size() > kMaxTraces) {
      auto oldest = c.entries.begin();
      for (auto it = c.entries.begin(); it != c.entries.end(); ++it)
        if (it->second->used < oldest->second->used) oldest = it;
      c.entries.erase(oldest);  // callers still holding it keep their copy
    }
  }
  // One parse per entry; others wait for it. A throw leaves it unparsed: the next caller reads
  // again (and gets the same error).
  const std::lock_guard<std::mutex> lock(entry->parsing);
  if (!entry->trace)
    entry->trace = std::make_shared<const Trace>(read_trace(path, format, options));
  return entry->trace;
}

}  // namespace goodput::trace
