// The "Examples:" footer of each subcommand's --help (and a pointer to them in the top-level
// help): commands that work as written from a checkout's root or the installed
// share/goodput folder, on the shipped scenarios. The test cli.help_examples runs every one
// (shortened: a 2-hour horizon, 2 seeds, its own --out), so an example that stops working fails it.
#pragma once

namespace CLI {
class App;
}

namespace goodput {

// Sets the footers of `app` and of its subcommands that have examples (call after adding them).
void add_examples(CLI::App& app);

}  // namespace goodput
