// The whole transformer layers each pipeline stage holds.
// Contract: stage_layers() returns pp entries: /job/stage_layers when given, else layers / pp
// each. It throws InputError (naming /job/stage_layers or /job/model/layers) when the layers
// do not split into whole stages and no split is declared, a declared list has the wrong
// length or sum, or a stage has fewer layers than its /job/virtual_stages chunks. The loader
// calls it for every scenario with a model, so `goodput validate` refuses the same scenarios.
#pragma once

#include <vector>

#include "models/scenario/scenario.hpp"

namespace goodput {

std::vector<int> stage_layers(const Scenario& scenario);

}  // namespace goodput
