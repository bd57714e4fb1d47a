# Tests of calibrate/: the CPU suite (always), the GPU suite (skips itself without a GPU) and
# exit-code checks of the two executables.

function(goodput_calib_register_tests target prefix)
  if(COMMAND doctest_discover_tests)
    doctest_discover_tests(${target} TEST_PREFIX "${prefix}")
  else()
    add_test(NAME ${target} COMMAND ${target})
  endif()
endfunction()

add_executable(test_calibration
  tests/test_main.cpp
  tests/test_analytical.cpp
  tests/test_attention_lookup.cpp
  tests/test_causal_tiles.cpp
  tests/test_cli_args.cpp
  tests/test_copy_addressing.cpp
  tests/test_fit.cpp
  tests/test_memory_kernels.cpp
  tests/test_memory_reference.cpp
  tests/test_plan.cpp
  tests/test_profile_check.cpp
  tests/test_profile_io.cpp
  tests/test_reshard_map.cpp
  tests/test_scenario.cpp
  tests/test_stats.cpp
  tests/test_stopping_rule.cpp
  tests/profile_fixture.cpp
)
target_link_libraries(test_calibration PRIVATE goodput_calibration goodput_calibrate_cli doctest::doctest goodput_warnings)
target_compile_definitions(test_calibration PRIVATE
  GOODPUT_CALIB_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
goodput_calib_register_tests(test_calibration "calibrate.")

add_test(NAME calibrate.analytical_tool
  COMMAND ${CMAKE_COMMAND}
          -DEXE=$<TARGET_FILE:goodput-profile-analytical>
          -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/analytical_tool_test
          -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/check_analytical_tool.cmake)
# Ctrl-C while the profile is written: no temporary left, the profile whole or absent.
add_test(NAME calibrate.analytical_interrupt
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/check_analytical_interrupt.sh
          $<TARGET_FILE:goodput-profile-analytical> ${CMAKE_CURRENT_BINARY_DIR}/analytical_interrupt)

if(GOODPUT_HAVE_CUDA)
  # Without a GPU the harness must exit 3 and leave no file. On a GPU machine this test is
  # meaningless: exclude it there (ctest -E no_gpu), as tools/device-run.sh does.
  add_test(NAME calibrate.harness_no_gpu_exit3
    COMMAND ${CMAKE_COMMAND}
            -DEXE=$<TARGET_FILE:goodput-calibrate>
            -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/harness_no_gpu_test
            -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/check_harness_no_gpu.cmake)
  add_test(NAME calibrate.harness_bad_input_exit2
    COMMAND ${CMAKE_COMMAND}
            -DEXE=$<TARGET_FILE:goodput-calibrate>
            -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/harness_bad_input_test
            -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/check_harness_bad_input.cmake)

  add_executable(test_calibration_gpu
    tests/gpu/test_gpu_main.cpp
    tests/gpu/test_gpu_gemm.cpp
    tests/gpu/test_gpu_memory.cpp
    tests/gpu/test_gpu_reshard.cpp
  )
  target_link_libraries(test_calibration_gpu PRIVATE
    goodput_calibrate_device goodput_calibration doctest::doctest goodput_warnings)
  goodput_calib_register_tests(test_calibration_gpu "calibrate.gpu.")
  # With GOODPUT_EXPECT_GPU=1 (as on the device machine) a missing GPU must fail the suite,
  # never pass it by skipping. Meaningless with a GPU: excluded there by -E no_gpu.
  add_test(NAME calibrate.gpu_expected_but_no_gpu_fails COMMAND test_calibration_gpu)
  set_tests_properties(calibrate.gpu_expected_but_no_gpu_fails PROPERTIES
    ENVIRONMENT GOODPUT_EXPECT_GPU=1 WILL_FAIL TRUE)
endif()
