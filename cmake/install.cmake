# `cmake --install <build> [--prefix DIR]`: the binaries into bin/ and the shipped data into
# share/goodput/, where an installed goodput looks for it (sim/core/data_dir.hpp): the scenarios
# (with their example traces), the analytical calibration profiles at the path the scenarios name
# (../calibrate/profiles), the JSON Schemas of report.json and sweep.json, and the plotting
# libraries report.html inlines (third_party/js, when scripts/vendor-js.sh has fetched them). Tested by install.runs_installed_default.
include(GNUInstallDirs)
set(goodput_data_dir ${CMAKE_INSTALL_DATADIR}/goodput)
foreach(target goodput goodput-mpi goodput-calibrate goodput-profile-analytical
               goodput-profile-check)
  if(TARGET ${target})
    install(TARGETS ${target} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION ${goodput_data_dir}/scenarios)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/calibrate/profiles/
        DESTINATION ${goodput_data_dir}/calibrate/profiles FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/third_party/js/ DESTINATION ${goodput_data_dir}/js
        OPTIONAL FILES_MATCHING PATTERN "*.js")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sim/report/schema/ DESTINATION ${goodput_data_dir}/schema)
