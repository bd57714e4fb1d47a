# What the root build and calibrate's standalone build (calibrate/cmake/Standalone.cmake) both
# decide, written once: the C++ standard, the default build type, the shared options, the
# warning flags (goodput_warnings) and whether CUDA is used (GOODPUT_HAVE_CUDA).
# Before including it, a build may set GOODPUT_DEFAULT_CUDA_ARCHITECTURES: the architectures to
# compile for when neither CMAKE_CUDA_ARCHITECTURES nor CUDAARCHS says.

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

add_library(goodput_warnings INTERFACE)
target_compile_options(goodput_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
# GCC 12 reports false -Wrestrict positives inside std::string concatenation (GCC bug 105651).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(goodput_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
endif()
if(GOODPUT_WARNINGS_AS_ERRORS)
  target_compile_options(goodput_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()

# CUDA is optional and decided here, once: the calibration harness is built only where a CUDA
# compiler and the toolkit's libraries exist. Everything else (and every CPU test) builds
# without it.
set(GOODPUT_HAVE_CUDA OFF)
if(GOODPUT_BUILD_CALIBRATION)
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX}
     AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(DEFINED GOODPUT_DEFAULT_CUDA_ARCHITECTURES AND NOT DEFINED CMAKE_CUDA_ARCHITECTURES
       AND NOT DEFINED ENV{CUDAARCHS})
      set(CMAKE_CUDA_ARCHITECTURES ${GOODPUT_DEFAULT_CUDA_ARCHITECTURES})
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit)
    if(CUDAToolkit_FOUND)
      set(GOODPUT_HAVE_CUDA ON)
    else()
      message(STATUS "${PROJECT_NAME}: CUDA compiler found but not the CUDA toolkit libraries; "
                     "goodput-calibrate will not be built")
    endif()
  else()
    message(STATUS "${PROJECT_NAME}: no CUDA compiler found; goodput-calibrate will not be built "
                   "(set CUDACXX or CMAKE_CUDA_COMPILER to enable it)")
  endif()
endif()
