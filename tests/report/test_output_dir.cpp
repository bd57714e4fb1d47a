// Where goodput may write a report (output_dir.hpp): the refusals, normalisation, the lock,
// crash-safe replacement and the recovery of a crashed writer's leftovers.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/core/error.hpp"
#include "sim/report/output_dir.hpp"
#include "sim/report/report_marker.hpp"
#include "support.hpp"

using namespace goodput;
namespace fs = std::filesystem;

namespace {

// `name` in a parent folder of its own, emptied first: the checks that count what is left
// beside a report see only this test's files, also when the pid of an earlier run (whose
// folders stay in the temp folder) comes round again.
fs::path fresh(const std::string& name) {
  const fs::path parent = fs::temp_directory_path() /
                          ("goodput-outdir-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(parent);
  fs::create_directories(parent);
  return parent / name;
}

void put(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

void publish_one(const fs::path& target, const std::string& text) {
  OutputDir out(target.string(), "--out");
  put(out.staging() / "report.md", text);
  out.publish();
}

std::string refusal(const std::string& path) {
  try {
    OutputDir out(path, "--out");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

int entries(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a new folder gets the report and the marker, and nothing else is left beside it") {
  const fs::path t = fresh("new") / "deeper" / "report";
  publish_one(t, "one");
  CHECK(test::slurp(t / "report.md") == "one");
  CHECK(OutputDir::is_goodput_folder(t));
  CHECK(entries(t.parent_path()) == 1);  // no staging folder, no lock file left
}

TEST_CASE("an earlier goodput report is replaced, and an empty folder is used") {
  const fs::path t = fresh("replace");
  {
    OutputDir out(t.string(), "--out");
    put(out.staging() / "report.md", "old");
    put(out.staging() / "only-old.json", "goodput wrote it, the next report has none");
    out.publish();
  }
  publish_one(t, "new");
  CHECK(test::slurp(t / "report.md") == "new");
  CHECK(!fs::exists(t / "only-old.json"));  // goodput's own file, listed in the old marker
  CHECK(entries(t.parent_path()) == 1);
  const fs::path e = fresh("empty");
  fs::create_directories(e);
  publish_one(e, "into empty");
  CHECK(test::slurp(e / "report.md") == "into empty");
}

TEST_CASE("the marker lists every file goodput wrote with its size and SHA-256") {
  const fs::path t = fresh("listed");
  {
    OutputDir out(t.string(), "--out");
    put(out.staging() / "report.md", "abc");
    put(out.staging() / "point-000" / "runs.csv", "");
    out.publish();
  }
  const std::string marker = test::slurp(t / OutputDir::marker_name());
  CHECK(marker.find("\"path\":\"report.md\",\"sha256\":"
                    "\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\","
                    "\"size\":3") != std::string::npos);
  CHECK(marker.find("point-000/runs.csv") != std::string::npos);
  CHECK(marker.find("pid") == std::string::npos);  // the same report gives the same bytes
}

TEST_CASE("a rerun refuses a report folder holding a user's files, and leaves all of it") {
  const fs::path t = fresh("userfiles");
  publish_one(t, "mine");
  put(t / "notes.md", "my notes");
  put(t / "plots" / "fig1.svg", "<svg/>");
  const std::string why = refusal(t.string());
  CHECK(why.find("notes.md") != std::string::npos);
  CHECK(why.find("plots/") != std::string::npos);
  CHECK(why.find("never deletes") != std::string::npos);
  CHECK(test::slurp(t / "notes.md") == "my notes");
  CHECK(test::slurp(t / "plots" / "fig1.svg") == "<svg/>");
  CHECK(test::slurp(t / "report.md") == "mine");
  fs::remove(t / "notes.md");
  fs::remove_all(t / "plots");
  // A listed file the user edited is theirs now: refused too, naming it.
  put(t / "report.md", "mine, with my edits");
  CHECK(refusal(t.string()).find("report.md (changed since goodput wrote it)") !=
        std::string::npos);
  CHECK(test::slurp(t / "report.md") == "mine, with my edits");
}

TEST_CASE("folders and files beside the target are never taken for goodput's by their names") {
  const fs::path t = fresh("rep");
  publish_one(t, "current");
  // A user's backup and copies named like old leftovers, each a real goodput report.
  for (const char* suffix : {".old-january", ".staging-1", ".partial", ".old-1"})
    fs::copy(t, t.string() + suffix, fs::copy_options::recursive);
  put(t.parent_path() / ".rep.lock", "a user's file");
  publish_one(t, "next");
  publish_one(t, "again");
  for (const char* suffix : {".old-january", ".staging-1", ".partial", ".old-1"})
    CHECK(test::slurp(t.string() + suffix + "/report.md") == "current");
  CHECK(test::slurp(t.parent_path() / ".rep.lock") == "a user's file");
  CHECK(entries(t.parent_path()) == 6);
  // A file of the lock's name that goodput did not write is refused and kept.
  put(t.parent_path() / ".rep.goodput-lock", "not goodput's lock, a user's file");
  CHECK(refusal(t.string()).find("goodput did not write it") != std::string::npos);
  CHECK(test::slurp(t.parent_path() / ".rep.goodput-lock") == "not goodput's lock, a user's file");
}

TEST_CASE("refused: a file, a foreign folder, a link, a device, and they are left untouched") {
  const fs::path file = fresh("notes.txt");
  put(file, "my notes");
  CHECK(refusal(file.string()).find("is a file") != std::string::npos);
  CHECK(test::slurp(file) == "my notes");

  const fs::path thesis = fresh("thesis");
  put(thesis / "chapter1.tex", "work");
  const std::string why = refusal(thesis.string());
  CHECK(why.find("not empty and holds no goodput report") != std::string::npos);
  CHECK(why.rfind("--out: ", 0) == 0);  // names the flag
  CHECK(test::slurp(thesis / "chapter1.tex") == "work");

  const fs::path link = fresh("link");
  fs::create_directory_symlink(thesis, link);
  CHECK(refusal(link.string()).find("symbolic link") != std::string::npos);
  CHECK(refusal("/dev/null").find("not a folder") != std::string::npos);
  // A folder named like an old sweep's record folder is a user's: it stays.
  const fs::path sweep = fresh("sweep");
  put(fs::path(sweep.string() + ".partial") / "mine.txt", "x");
  {
    OutputDir out(sweep.string(), "--out");
    const fs::path records = out.records(false);
    put(records / "point-000.json", "{}");
    CHECK(records.parent_path().filename().string().rfind(".sweep.goodput-records-", 0) == 0);
    out.drop_records();
    CHECK(!fs::exists(records));
  }
  CHECK(fs::exists(sweep.string() + ".partial/mine.txt"));
}

TEST_CASE("refused: the root, the working folder and its parents, the home folder") {
  CHECK(refusal("/").find("root folder") != std::string::npos);
  CHECK(refusal("//").find("root folder") != std::string::npos);
  const fs::path here = fresh("cwd") / "inner";
  fs::create_directories(here);
  put(here / "keep.txt", "x");
  const fs::path before = fs::current_path();
  fs::current_path(here);
  CHECK(refusal(".").find("working folder") != std::string::npos);
  CHECK(refusal("./").find("working folder") != std::string::npos);
  CHECK(refusal("..").find("working folder") != std::string::npos);
  CHECK(refusal(here.string() + "/").find("working folder") != std::string::npos);
  fs::current_path(before);
  CHECK(fs::exists(here / "keep.txt"));
  const char* saved = std::getenv("HOME");
  const std::string old_home = saved ? saved : "";
  ::setenv("HOME", here.string().c_str(), 1);
  CHECK(refusal(here.string()).find("home folder") != std::string::npos);
  CHECK(refusal(here.parent_path().string()).find("home folder") != std::string::npos);
  if (saved)
    ::setenv("HOME", old_home.c_str(), 1);
  else
    ::unsetenv("HOME");
}

TEST_CASE("a trailing slash names the same folder: the report goes there, not inside it") {
  const fs::path t = fresh("slash");
  publish_one(t.string() + "/", "first");
  publish_one(t.string() + "//", "second");
  CHECK(test::slurp(t / "report.md") == "second");
  CHECK(entries(t) == 2);  // report.md and the marker: no nested staging folder
  OutputDir out(t.string() + "/./", "--out");
  CHECK(out.target() == t);
}

TEST_CASE("a second writer of the same folder is refused while the first holds it") {
  const fs::path t = fresh("locked");
  {
    OutputDir first(t.string(), "--out");
    std::string why;
    try {
      OutputDir second(t.string() + "/", "--out");
    } catch (const InputError& e) {
      why = e.what();
    }
    CHECK(why.find("another goodput process is writing") != std::string::npos);
    put(first.staging() / "report.md", "first");
    first.publish();
  }
  publish_one(t, "after");  // free again once the first is done
  CHECK(test::slurp(t / "report.md") == "after");
}

TEST_CASE(
    "an unpublished staging folder is removed and a crashed writer's leftovers are recovered") {
  const fs::path t = fresh("crash");
  publish_one(t, "previous");
  {
    OutputDir out(t.string(), "--out");
    put(out.staging() / "report.md", "half");
  }  // e.g. an exception while writing: nothing published, nothing left
  CHECK(test::slurp(t / "report.md") == "previous");
  CHECK(entries(t.parent_path()) == 1);
  // As if killed between renaming the old report aside and renaming the new one in: the
  // leftovers are known by their role files, which name this target and their own path.
  const fs::path parent = t.parent_path();
  const fs::path aside = parent / ".crash.goodput-displaced-999999-abcdef";
  const fs::path staged = parent / ".crash.goodput-staging-999999-ghijkl";
  fs::rename(t, aside);
  write_role(aside, {"displaced", t, aside, 999999, {}});
  fs::create_directories(staged);
  write_role(staged, {"staging", t, staged, 999999, {}});
  put(staged / "report.md", "half");
  // A copy of a leftover elsewhere is not a leftover: its role file names another path.
  fs::copy(aside, parent / "my-copy", fs::copy_options::recursive);
  {
    OutputDir out(t.string(), "--out");  // claiming puts the previous report back
    CHECK(test::slurp(t / "report.md") == "previous");
    CHECK(!fs::exists(staged));
    CHECK(!fs::exists(aside));
    CHECK(!fs::exists(t / kRoleFile));
  }
  CHECK(test::slurp(parent / "my-copy" / "report.md") == "previous");
  // Killed after the swap: the earlier report, marked displaced, waits beside the new one.
  fs::remove_all(parent / "my-copy");
  publish_one(t, "newest");
  fs::copy(t, aside, fs::copy_options::recursive);
  write_role(aside, {"displaced", t, aside, 999999, {}});
  write_role(t, {"staging", t, aside, 999999, {}});
  publish_one(t, "after the crash");
  CHECK(test::slurp(t / "report.md") == "after the crash");
  CHECK(entries(parent) == 1);
}

TEST_CASE("a mount point is filled file by file, and keeps refusing a user's files") {
  const fs::path t = fresh("volume");
  fs::create_directories(t);
  ::setenv("GOODPUT_TEST_MOUNT_POINT", t.c_str(), 1);
  {
    OutputDir out(t.string(), "--out");
    CHECK(out.in_place());
    put(out.staging() / "report.md", "one");
    put(out.staging() / "point-000" / "a.csv", "x");
    CHECK(out.staging().parent_path() == t);  // staged on the volume itself
    out.publish();
  }
  {
    OutputDir out(t.string(), "--out");
    put(out.staging() / "report.md", "two");
    out.publish();
  }
  ::unsetenv("GOODPUT_TEST_MOUNT_POINT");
  CHECK(test::slurp(t / "report.md") == "two");
  CHECK(!fs::exists(t / "point-000"));
  CHECK(entries(t) == 2);  // report.md and the marker
  put(t / "notes.md", "mine");
  CHECK(refusal(t.string()).find("notes.md") != std::string::npos);
}

TEST_CASE("an unwritable parent is an input error naming the flag, not an internal error") {
  const fs::path file = fresh("plain-file");
  put(file, "x");
  CHECK_THROWS_AS(OutputDir((file / "r").string(), "--out"),
                  InputError);   // a parent that is a file
  if (::geteuid() == 0) return;  // root writes everywhere: no read-only folder to try
  const fs::path ro = fresh("readonly");
  fs::create_directories(ro);
  ::chmod(ro.c_str(), 0555);
  CHECK_THROWS_AS(OutputDir((ro / "r").string(), "--out"), InputError);
  ::chmod(ro.c_str(), 0755);
}
