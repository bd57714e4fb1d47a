# Issue 31: every kind of work budgeted (sweep size, pipeline schedule, break-even steps), threads
# that cannot be created, report.html's scripts checked, no file content in error messages.
# Included from tests/CMakeLists.txt (uses its ${expect}, ${data}, ${small}, ${trace}).
set(hard ${CMAKE_CURRENT_BINARY_DIR}/hardening)
# Sweep size: counted from the axes before any is expanded, refused at once over the cap.
add_test(NAME cli.budget.sweep_points_cap COMMAND ${expect} 2
  "^error: --axis: this sweep has 1001000 points \\(1000 x 1001 values\\), more than the 100000 one sweep may have; split it"
  timeout 10 $<TARGET_FILE:goodput> sweep ${small} --axis /job/step_s=1:1000:1 --axis /cluster/spare_domains=0..1000/1)
add_test(NAME cli.budget.sweep_points_1e12 COMMAND ${expect} 2 "^error: --axis: this sweep has 1000000000000 points"
  timeout 10 $<TARGET_FILE:goodput> sweep ${small} --axis /job/step_s=1..10000/1 --axis /horizon_hours=1..10000/1
  --axis /seeds=1..10000/1)
# Within the cap, but all its points together over --max-events: refused before any runs.
add_test(NAME cli.budget.sweep_total_events COMMAND ${expect} 2 "small-stat.json: this scenario asks for about .* events.*--max-events"
  timeout 20 $<TARGET_FILE:goodput> sweep ${small} --axis /job/step_s=1..10000/1 --axis /seeds=1,2 --max-events 1e5 --out ${hard}/sweep-events)
# The exact pipeline schedule: PP64 x 1,000 micro-batches validates at once; a schedule too large
# to lay out is refused, naming its keys, before any is.
add_test(NAME cli.budget.pipeline_pp64_mb1000 COMMAND ${expect} 0 "pp64-mb1000.json: ok"
  timeout 20 $<TARGET_FILE:goodput> validate ${data}/pp64-mb1000.json)
add_test(NAME cli.budget.pipeline_too_large COMMAND ${expect} 2
  "pp64-mb1000000.json: /job/microbatches: the exact pipeline schedule of /job/pp 64 x /job/microbatches 1000000 x /job/virtual_stages 1 has 1.28e\\+08 ops"
  timeout 10 $<TARGET_FILE:goodput> validate ${data}/pp64-mb1000000.json)
# Threads the system refuses: the run goes on with fewer, same bytes.
add_test(NAME cli.threads_refused_same_bytes
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/threads_refused.sh $<TARGET_FILE:goodput> ${small} ${hard}/threads)
# report.html: a plotting library whose SHA-256 differs from the one recorded is not inlined.
add_test(NAME cli.report_html_tampered_js_not_inlined
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/js_tampered.sh $<TARGET_FILE:goodput> ${small} ${hard}/js)
# A file named as profile or trace holding anything: exit 2, file and position named, no content.
add_test(NAME cli.secret_not_echoed
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/secret_not_echoed.sh $<TARGET_FILE:goodput>
          ${PROJECT_SOURCE_DIR}/scenarios ${hard}/secret)
# CSV formula injection: a text axis value is written as "'=...", a number as it is.
add_test(NAME cli.points_csv_formula_quoted
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/csv_formula.sh $<TARGET_FILE:goodput> ${small} ${hard}/csv)
# Break-even and sensitivity steps each build the plan again (here 128 x the schedule's 1.28e5 ops
# each): the run's break-even analysis is skipped with a note, sensitivity refused, up front.
add_test(NAME cli.budget.break_even_steps
  COMMAND sh -c "rm -rf \"$1\" && timeout 60 \"$0\" run \"$2\" --max-events 1e9 --out \"$1\" --quiet && grep -q 'skipped: its cap (.* runs of the scenario, each building its plan' \"$1/report.json\""
          $<TARGET_FILE:goodput> ${hard}/break-even ${data}/pp64-mb1000.json)
add_test(NAME cli.budget.sensitivity_steps COMMAND ${expect} 2 "pp64-mb1000.json: this scenario asks for about .* events.*--max-events"
  timeout 30 $<TARGET_FILE:goodput> sensitivity ${data}/pp64-mb1000.json --max-events 1e9 --out ${hard}/sensitivity)
