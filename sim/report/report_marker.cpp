#include "sim/report/report_marker.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <system_error>

#include "sim/core/content_hash.hpp"
#include "sim/core/durable_file.hpp"
#include "sim/core/error.hpp"

namespace goodput {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr const char* kMarkerHead = "{\"goodput\":";
constexpr std::uintmax_t kMaxMarkerBytes = 64u << 20;

// The files a report folder written before markers listed their files holds (any goodput
// writer: run, sweep, seek, sensitivity), and those of a sweep's point-NNN/ folders.
const std::set<std::string>& legacy_names() {
  static const std::set<std::string> names = {
      "report.json", "report.md",  "report.html",      "runs.csv",       "timeline.json",
      "sweep.json",  "points.csv", "sensitivity.json", "sensitivity.md", "sensitivity.html"};
  return names;
}

bool legacy_point_folder(const std::string& name) {
  if (name.size() < 7 || name.rfind("point-", 0) != 0) return false;
  return std::all_of(name.begin() + 6, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<std::string> slurp_small(const fs::path& file) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(file, ec);
  if (ec || !fs::is_regular_file(st) || fs::file_size(file, ec) > kMaxMarkerBytes || ec)
    return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) return std::nullopt;
  return text;
}

std::string rel(const fs::path& p, const fs::path& base) {
  return p.lexically_relative(base).generic_string();
}

}  // namespace

std::optional<Manifest> read_manifest(const fs::path& dir) {
  const auto text = slurp_small(dir / kMarkerFile);
  if (!text) return std::nullopt;
  Manifest m;
  if (text->rfind("goodput report folder", 0) == 0) {
    m.legacy = true;
    return m;
  }
  if (text->rfind(kMarkerHead, 0) != 0) return std::nullopt;
  const Json j = Json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("files") || !j["files"].is_array())
    return std::nullopt;
  for (const auto& f : j["files"]) {
    if (!f.is_object() || !f.contains("path") || !f["path"].is_string() || !f.contains("size") ||
        !f["size"].is_number_unsigned() || !f.contains("sha256") || !f["sha256"].is_string())
      return std::nullopt;
    m.files.push_back({f["path"].get<std::string>(), f["size"].get<std::uintmax_t>(),
                       f["sha256"].get<std::string>()});
  }
  return m;
}

std::vector<OwnedFile> digest_tree(const fs::path& dir) {
  std::vector<OwnedFile> out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::file_status st = it->symlink_status();
    const std::string r = rel(it->path(), dir);
    if (it.depth() == 0 && (r == kMarkerFile || r == kRoleFile)) continue;
    if (fs::is_directory(st)) continue;
    if (!fs::is_regular_file(st)) throw FileError(it->path().string() + " is not a plain file");
    const FileDigest d = digest_file(it->path());
    out.push_back({r, d.size, d.sha256});
  }
  std::sort(out.begin(), out.end(),
            [](const OwnedFile& a, const OwnedFile& b) { return a.path < b.path; });
  return out;
}

std::string manifest_text(const std::vector<OwnedFile>& files) {
  Json list = Json::array();
  for (const auto& f : files)
    list.push_back(Json{{"path", f.path}, {"size", f.size}, {"sha256", f.sha256}});
  // Written by hand so the head is fixed ("goodput" first): is_goodput_folder reads it.
  return std::string(kMarkerHead) + " \"report folder\", \"marker_version\": 2,\n" +
         " \"note\": \"written by goodput: a later goodput run into this folder replaces the " +
         "files listed here, and refuses while the folder holds anything else\",\n" +
         " \"files\": " + list.dump() + "}\n";
}

std::vector<std::string> foreign_entries(const fs::path& dir, const Manifest& m,
                                         bool hash_contents) {
  std::map<std::string, const OwnedFile*> listed;
  std::set<std::string> listed_dirs;
  std::vector<std::string> extra_owned;  // an interrupted in-place update lists more files
  if (const auto role = read_role(dir); role && role->role == "updating") extra_owned = role->files;
  for (const auto& f : m.files) {
    listed[f.path] = &f;
    for (fs::path p = fs::path(f.path).parent_path(); !p.empty(); p = p.parent_path())
      listed_dirs.insert(p.generic_string());
  }
  for (const auto& f : extra_owned)
    for (fs::path p = fs::path(f).parent_path(); !p.empty(); p = p.parent_path())
      listed_dirs.insert(p.generic_string());
  const std::set<std::string> extra(extra_owned.begin(), extra_owned.end());
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::file_status st = it->symlink_status();
    const std::string r = rel(it->path(), dir);
    const std::string top = r.substr(0, r.find('/'));
    if (it.depth() == 0 &&
        (r == kMarkerFile || r == kRoleFile || r == std::string(kRoleFile) + ".tmp"))
      continue;
    if (fs::is_directory(st)) {
      if (leftover_role(it->path(), dir)) {  // goodput's own staging folder inside the report
        it.disable_recursion_pending();
        continue;
      }
      const bool owned =
          m.legacy ? (it.depth() == 0 && legacy_point_folder(top)) : listed_dirs.count(r) > 0;
      if (!owned) {
        out.push_back(r + "/");
        it.disable_recursion_pending();
      }
      continue;
    }
    if (!fs::is_regular_file(st)) {
      out.push_back(r + " (not a plain file)");
      continue;
    }
    if (extra.count(r)) continue;
    if (m.legacy) {
      const std::string leaf = it->path().filename().string();
      if (!legacy_names().count(leaf) || it.depth() > 1) out.push_back(r);
      continue;
    }
    const auto f = listed.find(r);
    if (f == listed.end()) {
      out.push_back(r);
      continue;
    }
    std::error_code sec;
    bool same = fs::file_size(it->path(), sec) == f->second->size && !sec;
    if (same && hash_contents) {
      try {
        same = digest_file(it->path()).sha256 == f->second->sha256;
      } catch (const std::exception&) {
        same = false;
      }
    }
    if (!same) out.push_back(r + " (changed since goodput wrote it)");
  }
  if (ec) out.push_back("(cannot read the folder: " + ec.message() + ")");
  return out;
}

void write_role(const fs::path& dir, const FolderRole& role) {
  Json j = {{"goodput", "folder role"},
            {"role", role.role},
            {"target", role.target.string()},
            {"at", role.at.string()},
            {"pid", role.pid}};
  if (!role.files.empty()) j["files"] = role.files;
  const fs::path tmp = dir / (std::string(kRoleFile) + ".tmp");
  try {
    write_file_durable(tmp, j.dump() + "\n");
    fs::rename(tmp, dir / kRoleFile);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
  fsync_dir(dir);
}

std::optional<FolderRole> read_role(const fs::path& dir) {
  const auto text = slurp_small(dir / kRoleFile);
  if (!text) return std::nullopt;
  const Json j = Json::parse(*text, nullptr, false);
  try {
    if (j.is_discarded() || j.at("goodput") != "folder role") return std::nullopt;
    FolderRole r;
    r.role = j.at("role").get<std::string>();
    r.target = j.at("target").get<std::string>();
    r.at = j.at("at").get<std::string>();
    r.pid = j.at("pid").get<long>();
    if (j.contains("files")) r.files = j.at("files").get<std::vector<std::string>>();
    return r;
  } catch (const Json::exception&) {
    return std::nullopt;
  }
}

std::optional<FolderRole> leftover_role(const fs::path& dir, const fs::path& target) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(dir, ec)) || !fs::is_directory(dir, ec))
    return std::nullopt;
  auto r = read_role(dir);
  if (!r || r->target != target || r->at != dir) return std::nullopt;
  return r;
}

}  // namespace goodput
