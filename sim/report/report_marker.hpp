// What goodput wrote into a report folder, and what a folder beside it is for.
//
// The marker `.goodput-report` in every report folder lists each file goodput wrote there
// (path relative to the folder, size, SHA-256), sorted by path; its text depends on the files
// only, so the same report gives the same marker byte for byte. A marker from before that list
// (goodput < 0.9: plain text starting "goodput report folder") owns the files goodput wrote by
// name (report.json, runs.csv, ...; point-NNN/ folders of a sweep).
//
// A folder goodput makes for a while — a staging folder, a displaced earlier report, a sweep's
// records — holds a role file `.goodput-role` saying what it is (role), for which report
// (target), where it was made to be (at) and by which process (pid). A crashed writer's
// leftovers are recognised only by a role file whose target is the report being written and
// whose `at` is the folder's own path: never by the folder's name, so a user's copy or backup
// of a report (at another path) is never taken for one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace goodput {

constexpr const char* kMarkerFile = ".goodput-report";
constexpr const char* kRoleFile = ".goodput-role";

struct OwnedFile {
  std::string path;  // relative, '/'-separated
  std::uintmax_t size = 0;
  std::string sha256;
};

struct Manifest {
  bool legacy = false;  // an old marker without a file list: owns goodput's file names
  std::vector<OwnedFile> files;
};

// nullopt when `dir` has no marker that goodput wrote (absent, a link, not goodput's text).
std::optional<Manifest> read_manifest(const std::filesystem::path& dir);
// Every regular file below `dir` (the marker and role file excepted), hashed, sorted by path.
// Throws std::runtime_error on anything that is not a plain file or folder (goodput writes
// none) or a file it cannot read.
std::vector<OwnedFile> digest_tree(const std::filesystem::path& dir);
std::string manifest_text(const std::vector<OwnedFile>& files);

// The entries of report folder `dir` that goodput did not write, relative, each with why
// ("notes.md", "plots/", "report.md (changed since goodput wrote it)"). Folders holding a role
// file for this very target (goodput's own work in progress) are skipped. Empty: every entry
// is goodput's, and the folder may be replaced whole. Without `hash_contents` a listed file is
// compared by size only (a quick first look; the decision re-reads with hashes).
std::vector<std::string> foreign_entries(const std::filesystem::path& dir, const Manifest& m,
                                         bool hash_contents = true);

struct FolderRole {
  std::string role;                // "staging", "displaced", "records", "updating"
  std::filesystem::path target;    // the report folder this one works for
  std::filesystem::path at;        // where this folder was made to be
  long pid = 0;                    // the process that made it (for people; the lock decides)
  std::vector<std::string> files;  // "updating": every file of the old and new report
};
void write_role(const std::filesystem::path& dir, const FolderRole& role);  // durable
std::optional<FolderRole> read_role(const std::filesystem::path& dir);
// A role file of goodput's at `dir` whose `at` is `dir` and whose target is `target`.
std::optional<FolderRole> leftover_role(const std::filesystem::path& dir,
                                        const std::filesystem::path& target);

}  // namespace goodput
