# Standalone configuration of calibrate/ (cmake -S calibrate -B build-calib), for machines that
# have CUDA, cmake and ninja but none of the Debian packages the root build needs. Provides
# what the root CMakeLists.txt would: C++20, the CUDA decision (GOODPUT_HAVE_CUDA),
# goodput_warnings, goodput_core (the part calibrate uses), nlohmann_json, CLI11 and (optionally)
# doctest.

set(_goodput_repo_root "${CMAKE_CURRENT_SOURCE_DIR}/..")
set(GOODPUT_THIRD_PARTY_INCLUDE "${_goodput_repo_root}/third_party/include" CACHE PATH
    "Folder with vendored header-only dependencies (nlohmann/, CLI/, doctest/); see tools/vendor-headers.sh")

# C++20, the options, goodput_warnings and the CUDA decision, as in the root build.
set(GOODPUT_DEFAULT_CUDA_ARCHITECTURES 90 100)
include("${_goodput_repo_root}/cmake/goodput_common.cmake")

# A header-only dependency: the installed package, else its vendored headers (HEADER under
# GOODPUT_THIRD_PARTY_INCLUDE) as the imported TARGET; neither is fatal, naming APT.
function(goodput_header_package package version header target apt)
  find_package(${package} ${version} QUIET)
  if(${package}_FOUND)
    return()
  endif()
  if(NOT EXISTS "${GOODPUT_THIRD_PARTY_INCLUDE}/${header}")
    message(FATAL_ERROR "goodput-calibrate needs ${package}: install it (apt install ${apt}) or "
                        "run calibrate/tools/vendor-headers.sh on a machine that has it and carry "
                        "third_party/include here (or set GOODPUT_THIRD_PARTY_INCLUDE)")
  endif()
  add_library(${target} INTERFACE IMPORTED)
  target_include_directories(${target} INTERFACE "${GOODPUT_THIRD_PARTY_INCLUDE}")
  message(STATUS "goodput-calibrate: ${package} from ${GOODPUT_THIRD_PARTY_INCLUDE}")
endfunction()

goodput_header_package(nlohmann_json 3.10 nlohmann/json.hpp nlohmann_json::nlohmann_json
                       nlohmann-json3-dev)
goodput_header_package(CLI11 2.1 CLI/CLI.hpp CLI11::CLI11 libcli11-dev)  # the tools' arguments

# The part of goodput_core calibrate uses, from the root build's sources: the strict reader of
# declared parameters (sim/core/params.*, which reads profiles) and what it needs, the
# progress display and the signal watcher; headers at the repository root, as there.
find_package(Threads REQUIRED)
add_library(goodput_core STATIC "${_goodput_repo_root}/sim/core/params.cpp"
                                "${_goodput_repo_root}/sim/core/json_text.cpp"
                                "${_goodput_repo_root}/sim/core/input_file.cpp"
                                "${_goodput_repo_root}/sim/core/progress_line.cpp"
                                "${_goodput_repo_root}/sim/core/interrupt.cpp")
target_include_directories(goodput_core PUBLIC "${_goodput_repo_root}")
target_link_libraries(goodput_core PUBLIC nlohmann_json::nlohmann_json Threads::Threads
                                   PRIVATE goodput_warnings)
target_compile_features(goodput_core PUBLIC cxx_std_20)

# doctest: an installed package, else the vendored header (+ vendored doctest.cmake if any).
if(GOODPUT_BUILD_TESTS)
  enable_testing()
  find_package(doctest QUIET)
  if(doctest_FOUND)
    include(${doctest_DIR}/doctest.cmake)
  elseif(EXISTS "${GOODPUT_THIRD_PARTY_INCLUDE}/doctest/doctest.h")
    add_library(doctest::doctest INTERFACE IMPORTED)
    target_include_directories(doctest::doctest INTERFACE "${GOODPUT_THIRD_PARTY_INCLUDE}")
    if(EXISTS "${GOODPUT_THIRD_PARTY_INCLUDE}/../cmake/doctest/doctest.cmake")
      include("${GOODPUT_THIRD_PARTY_INCLUDE}/../cmake/doctest/doctest.cmake")
    endif()
  else()
    message(STATUS "goodput-calibrate: doctest not found; tests will not be built")
  endif()
endif()
