// goodput-mpi: `mpirun -n N goodput-mpi sweep SCENARIO --axis ... [--out DIR] [--resume]
// [--seeds N|auto --ci-target X --tie-margin X --max-seeds M] [--set ...] [--strategies a,b]
// [--threads T]
// [--quiet] [--progress]`, or `--seek PTR --min A --max B --target ... --strategy S` instead of
// the axes. The sweep of `goodput sweep` (same flags, same output bytes), its points spread over
// the MPI ranks (mpi_sweep.hpp); a goal seek's ranks compute the values bisection may ask next
// (seek_prefetch.hpp). --threads: Monte Carlo threads per
// rank (default 1: ranks are the parallelism). Exit codes as goodput: 2 bad input, 1 other.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "sim/cli/command_line.hpp"
#include "sim/cli/sweep_command.hpp"
#include "sim/cli/sweep_flags.hpp"
#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/mpi/mpi_sweep.hpp"
#include "sim/report/report.hpp"

namespace {

int rank0(int argc, char** argv, goodput::mpi::Dispatcher& dispatcher) {
  using goodput::affects_results;
  using goodput::SweepArgs;
  CLI::App app{"goodput-mpi: a goodput sweep spread over MPI ranks"};
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", std::string("goodput-mpi ") + goodput::kToolVersion);
  SweepArgs sw;
  int stop_after = -1;
  auto* sweep = app.add_subcommand("sweep", "run a scenario over the cross product of axis values");
  goodput::add_sweep_flags(*sweep, sw, goodput::SweepFlagSet::Mpi);
  sweep
      ->add_option("--stop-after", stop_after,
                   "testing: compute this many points (seek: values), then stop unfinished")
      ->group("");  // hidden
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // An unknown flag: named with the closest known one, as goodput does (command_line.hpp).
    const std::string message = goodput::unknown_flag_message(app, "goodput-mpi");
    if (message.empty())
      app.exit(e);
    else
      std::cerr << "error: " << message << "\n";
    return 2;
  }
  if (sw.threads <= 0) sw.threads = 1;
  sw.workers = dispatcher.workers();
  sw.stop_after = stop_after;
  sw.command = goodput::canonical_command(*sweep);  // as goodput sweep records it
  try {
    // The seed rule is parsed by command_sweep; the runner needs it too (same rules), for the
    // points whose scenario says auto.
    std::vector<std::string> ignored;  // command_sweep applies --seeds N|auto itself
    const goodput::SeedPolicy seeds = goodput::seed_rule(sw.seed, ignored);
    sw.runner = dispatcher.runner(sw.threads, seeds);
    return goodput::command_sweep(sw);
  } catch (const std::exception&) {
    return goodput::exit_code_for_current_exception("goodput-mpi");
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Before MPI starts its threads, so they inherit the blocked signals. When the launcher passes
  // on a Ctrl-C or kill (mpirun: SIGTERM), rank 0 removes its staging folder and lock and keeps
  // the finished points for --resume (interrupt.hpp). The other ranks leave the signals to it:
  // were one to end first, mpirun would SIGKILL rank 0 in the middle of its cleanup; they end
  // when the launcher ends the job.
  goodput::block_interrupts();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks > 1 && provided < MPI_THREAD_SERIALIZED) {
    if (rank == 0)
      std::cerr << "goodput-mpi: the MPI library does not provide MPI_THREAD_SERIALIZED\n";
    MPI_Finalize();
    return 1;
  }
  int rc = 0;
  if (rank == 0) {
    goodput::watch_interrupts();
    goodput::mpi::Dispatcher dispatcher(ranks);
    rc = rank0(argc, argv, dispatcher);
    dispatcher.shutdown();  // every other rank stops, whatever happened here
  } else {
    goodput::mpi::serve_points();
  }
  MPI_Finalize();
  return rc;
}
