# Standalone configuration of calibrate/ (cmake -S calibrate -B build-calib), for machines that
# have CUDA, cmake and ninja but none of the Debian packages the root build needs. Provides
# what the root CMakeLists.txt would: C++20, the CUDA decision (GOODPUT_HAVE_CUDA),
# goodput_warnings, goodput_core, nlohmann_json, CLI11 and (optionally) doctest.

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

option(GOODPUT_BUILD_TESTS "Build the doctest suite" ON)
option(GOODPUT_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
option(GOODPUT_BUILD_CALIBRATION "Build goodput-calibrate when a CUDA compiler is found" ON)

set(_goodput_repo_root "${CMAKE_CURRENT_SOURCE_DIR}/..")
set(GOODPUT_THIRD_PARTY_INCLUDE "${_goodput_repo_root}/third_party/include" CACHE PATH
    "Folder with vendored header-only dependencies (nlohmann/, CLI/, doctest/); see tools/vendor-headers.sh")

add_library(goodput_warnings INTERFACE)
target_compile_options(goodput_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
if(GOODPUT_WARNINGS_AS_ERRORS)
  target_compile_options(goodput_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()

# sim/core/error.hpp lives at the repository root, as in the root build.
add_library(goodput_core INTERFACE)
target_include_directories(goodput_core INTERFACE "${_goodput_repo_root}")

# CUDA, decided the same way as the root build.
set(GOODPUT_HAVE_CUDA OFF)
if(GOODPUT_BUILD_CALIBRATION)
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX}
     AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      set(CMAKE_CUDA_ARCHITECTURES 90 100)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit)
    if(CUDAToolkit_FOUND)
      set(GOODPUT_HAVE_CUDA ON)
    else()
      message(STATUS "goodput-calibrate: CUDA compiler found but not the CUDA toolkit libraries; "
                     "the harness will not be built")
    endif()
  else()
    message(STATUS "goodput-calibrate: no CUDA compiler found; the harness will not be built "
                   "(set CUDACXX or CMAKE_CUDA_COMPILER to enable it)")
  endif()
endif()

# nlohmann/json: an installed package, else the vendored headers.
find_package(nlohmann_json 3.10 QUIET)
if(NOT nlohmann_json_FOUND)
  if(EXISTS "${GOODPUT_THIRD_PARTY_INCLUDE}/nlohmann/json.hpp")
    add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
    target_include_directories(nlohmann_json::nlohmann_json INTERFACE "${GOODPUT_THIRD_PARTY_INCLUDE}")
    message(STATUS "goodput-calibrate: nlohmann/json from ${GOODPUT_THIRD_PARTY_INCLUDE}")
  else()
    message(FATAL_ERROR "goodput-calibrate needs nlohmann/json: install it (apt install "
                        "nlohmann-json3-dev) or run calibrate/tools/vendor-headers.sh on a machine "
                        "that has it and carry third_party/include here "
                        "(or set GOODPUT_THIRD_PARTY_INCLUDE)")
  endif()
endif()

# CLI11 (the tools' argument parser): an installed package, else the vendored headers.
find_package(CLI11 2.1 QUIET)
if(NOT CLI11_FOUND)
  if(EXISTS "${GOODPUT_THIRD_PARTY_INCLUDE}/CLI/CLI.hpp")
    add_library(CLI11::CLI11 INTERFACE IMPORTED)
    target_include_directories(CLI11::CLI11 INTERFACE "${GOODPUT_THIRD_PARTY_INCLUDE}")
    message(STATUS "goodput-calibrate: CLI11 from ${GOODPUT_THIRD_PARTY_INCLUDE}")
  else()
    message(FATAL_ERROR "goodput-calibrate needs CLI11: install it (apt install libcli11-dev) or "
                        "run calibrate/tools/vendor-headers.sh on a machine that has it and carry "
                        "third_party/include here (or set GOODPUT_THIRD_PARTY_INCLUDE)")
  endif()
endif()

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
