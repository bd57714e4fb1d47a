// File-system steps of replacing a report folder (output_dir.cpp): whether a path is a mount
// point, goodput's names beside a report, fsync of a tree, and removing a folder goodput made
// in an order that a kill part-way leaves recognisable.
#pragma once

#include <filesystem>
#include <string>

namespace goodput {

// A folder another file system (or a bind mount of the same one) is mounted on: it cannot be
// renamed or replaced, only filled. Test hook: GOODPUT_TEST_MOUNT_POINT=<path> says yes for it.
bool is_mount_point(const std::filesystem::path& p);
// The target's name as goodput's own folders and lock beside it use it (short enough for them).
std::string short_name(const std::filesystem::path& target);
// fsyncs `dir` and every folder below it.
void fsync_tree(const std::filesystem::path& dir);
// Removes a folder goodput made: its files, then its marker, then its role file, then itself.
void remove_owned(const std::filesystem::path& dir);
// An empty folder (or one holding only a role file being written) named exactly as mkdtemp
// named goodput's folders for this target (`prefix` = ".<short_name>.goodput-").
bool abandoned_temp(const std::filesystem::path& dir, const std::string& prefix);

}  // namespace goodput
