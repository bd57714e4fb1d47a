// The command that reproduces an output (report.json / sweep.json "command", report.md): the
// program and subcommand, then only the arguments marked `affects_results` where they are
// registered (the scenario as given, --set, --seeds, --axis, ...), never those that change only
// speed, messages or where files go (--threads, --quiet, --progress, --out, --resume). Positionals
// come first, then options sorted by name, each with its values in the order given, so the same
// arguments give the same command in any order, from goodput and from goodput-mpi alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI

namespace goodput {

// Marks `option` as one that changes what is written; returns it, for chaining.
CLI::Option* affects_results(CLI::Option* option);

// A check that a flag's value is a number > 0, whose error says just that ("--seeds: must be a
// number > 0, got 0") instead of CLI11's range with a 300-digit upper bound.
CLI::Validator positive_number();

// Restricts `option` to `values` (CLI::IsMember) and records them for shell completion
// (completion.hpp), so the choices are declared once; returns it, for chaining.
CLI::Option* one_of(CLI::Option* option, const std::vector<std::string>& values);
// The values one_of recorded for `option` (empty: any value).
std::vector<std::string> option_choices(const CLI::Option* option);
// Records that `option`'s value starts with a scenario JSON pointer (--set, --axis, --seek,
// --param), followed by `then` ("=": a value comes next; "": the pointer alone), so shell
// completion offers the declared keys; returns it, for chaining.
CLI::Option* takes_pointer(CLI::Option* option, const std::string& then = "=");
// What takes_pointer recorded for `option` (nullopt: not a pointer).
std::optional<std::string> pointer_suffix(const CLI::Option* option);

// After CLI11 refused unexpected arguments (CLI::ExtrasError): when the first of them looks like
// a flag ("--seed", "--seed=3", "-x"), "goodput run: unknown flag '--seed' (did you mean
// '--seeds'?); goodput run --help lists the flags", naming the deepest subcommand given and
// the closest of its flags (suggest.hpp); "" when none looks like a flag. `program`: the name
// shown for `app` ("goodput"; CLI11 names it after argv[0]).
std::string unknown_flag_message(const CLI::App& app, const std::string& program);

// After parsing: {"goodput", subcommand name, marked arguments...}.
std::vector<std::string> canonical_command(const CLI::App& subcommand);

// The exit code for the exception being handled (error.hpp's table), its message printed on
// stderr: InputError 2, FileError and file-system errors 1 ("error: ..."), anything else 1 as
// an internal error of `program`. Call inside a catch block; goodput's and goodput-mpi's mains
// share it.
int exit_code_for_current_exception(const char* program);

// For the one-line summaries on stdout: an elapsed time as people read it ("0.42 s", "12.3 s",
// "4 min 05 s", "1 h 02 min"), and a count with its noun ("1 seed", "20 seeds").
std::string elapsed_text(double seconds);
std::string count_text(long n, const std::string& singular, const std::string& plural);

}  // namespace goodput
