// `goodput explain-step SCENARIO [--tp T]`: where the healthy step's time goes under the
// iteration cost model — per layer (GEMMs, causal attention, element-wise work, TP
// collectives, recomputation), per pipeline stage (LM head, P2P, DP gradient sync and how
// much of it is exposed, optimizer) and per step (exact pipeline schedule, bubble, model
// TFLOP/s per GPU and MFU). With --tp T, the same for a stage at TP degree T and what a
// replica with one such stage keeps. Throws InputError for bad input; returns the exit code.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace goodput {

struct ExplainArgs {
  std::string scenario;
  int tp = 0;  // 0: the healthy degree only
  std::vector<std::string> sets;
};

CLI::App* add_explain_step(CLI::App& app, ExplainArgs& args);
int command_explain_step(const ExplainArgs& args);

}  // namespace goodput
