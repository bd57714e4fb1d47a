#include "sim/cli/examples.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace goodput {

namespace {

struct Example {
  const char* what;     // one line: what it answers
  const char* command;  // a command line as typed in a shell
};

struct CommandExamples {
  const char* command;
  std::vector<Example> examples;
};

const std::vector<CommandExamples>& examples() {
  static const std::vector<CommandExamples> table = {
      {"run",
       {{"the shipped default scenario (34,816 B200 GPUs, 30 days, every strategy)", "goodput run"},
        {"two strategies on Llama 3's 16K-H100 job, into a folder of your choice",
         "goodput run scenarios/llama3-16k-h100.json --strategies checkpoint_restart,dp_drop "
         "--out llama3-report"},
        {"failures at 3x the rate: ntp against dp_drop, paired",
         "goodput run --set /failures/rate_scale=3 --strategies dp_drop,ntp --baseline dp_drop"},
        {"as many seeds as the verdict needs (batches of 8 until every lead is settled)",
         "goodput run scenarios/llama3-16k-h100.json --seeds auto"}}},
      {"sweep",
       {{"Goodput (and per provisioned GPU) over the number of spare domains",
         "goodput sweep scenarios/default.json --axis /cluster/spare_domains=0,16,32,64 "
         "--strategies dp_drop,ntp"},
        {"the fewest spare racks that keep hot_spares at 95% Goodput (goal seek)",
         "goodput sweep scenarios/gb200-nvl72-tp64.json --seek /cluster/spare_domains --min 0 "
         "--max 32 --strategy hot_spares --target 'goodput>=0.95'"},
        {"a fixed checkpoint interval from 10 to 60 minutes, 5 seeds a point",
         "goodput sweep scenarios/llama3-16k-h100.json --set /checkpoint/interval=fixed --axis "
         "/checkpoint/interval_s=600:3600:600 --seeds 5"}}},
      {"sensitivity",
       {{"what the verdict on Llama 3's job depends on (every plausible input)",
         "goodput sensitivity scenarios/llama3-16k-h100.json"},
        {"one input over a range of your choice",
         "goodput sensitivity scenarios/llama3-16k-h100.json --param "
         "/recovery/restart_s=60:1800"}}},
      {"validate",
       {{"what two scenarios resolve to: GPUs, domains, job size, faults per hour, warnings",
         "goodput validate scenarios/default.json scenarios/llama3-16k-h100.json"}}},
      {"describe",
       {{"every key a scenario accepts", "goodput describe schema"},
        {"the scenario JSON Schema, for an editor's completion and checks",
         "goodput describe schema --json > scenario.schema.json"},
        {"the strategies and their parameters", "goodput describe strategies"},
        {"the GPU catalogue: datasheet figures and their sources", "goodput describe hardware"}}},
      {"explain-step",
       {{"where a healthy step's time goes on the NTP paper's job",
         "goodput explain-step scenarios/ntp-paper-nvl32.json"},
        {"the same, and what a replica keeps with one stage at TP30",
         "goodput explain-step scenarios/ntp-paper-nvl32.json --tp 30"}}},
      {"import",
       {{"Slurm node events (sacctmgr -P) into a trace CSV, hosts gpu-node-001.. as node/0..",
         "goodput import --format slurm-events --host-pattern 'gpu-node-0*([0-9]+)' --host-offset "
         "-1 scenarios/traces/example-slurm-events.txt --out slurm-trace.csv"},
        {"an event log with ISO timestamps, hosts mapped by a host,component file, to stdout",
         "goodput import --format iso-events-csv --hosts scenarios/traces/example-hosts.csv "
         "scenarios/traces/example-iso-events.csv --out -"}}},
      {"diff",
       {{"what 16 more spare domains change (two points of a committed sweep)",
         "goodput diff results/ntp-paper-nvl32-spares/point-000 "
         "results/ntp-paper-nvl32-spares/point-002"},
        {"the default scenario against its fail-slow variant, as JSON",
         "goodput diff results/default/report.json results/fail-slow --json"}}},
      {"completion",
       {{"bash", "goodput completion bash > ~/.local/share/bash-completion/completions/goodput"},
        {"zsh (a folder of $fpath)", "goodput completion zsh > \"${fpath[1]}/_goodput\""},
        {"fish", "goodput completion fish > ~/.config/fish/completions/goodput.fish"}}},
  };
  return table;
}

std::string footer(const CommandExamples& c) {
  bool scenarios = false;
  for (const Example& e : c.examples)
    scenarios = scenarios || std::string(e.command).find("scenarios/") != std::string::npos;
  std::string out = scenarios ? "Examples (scenario paths as in a checkout or the installed "
                                "share/goodput/):\n"
                              : "Examples:\n";
  for (const Example& e : c.examples)
    out += std::string("  # ") + e.what + "\n  " + e.command + "\n";
  return out;
}

}  // namespace

void add_examples(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    for (const CommandExamples& c : examples())
      if (sub->get_name() == c.command) sub->footer(footer(c));
  app.footer(
      "goodput COMMAND --help shows a command's flags and examples; `goodput` alone prints this "
      "help.");
}

}  // namespace goodput
