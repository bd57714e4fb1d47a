# CTest script: without a usable GPU, goodput-calibrate exits 3, says why, and leaves no
# profile (not even a temporary). Inputs: EXE, OUT_DIR. Do not run on a GPU machine.
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
execute_process(COMMAND "${EXE}" --quick --out "${OUT_DIR}/profile.json"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected exit 3 without a GPU, got '${rc}': ${err}")
endif()
string(FIND "${err}" "no CUDA device" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "expected a 'no CUDA device' message, got: ${err}")
endif()
file(GLOB left "${OUT_DIR}/*")
if(left)
  message(FATAL_ERROR "files left behind: ${left}")
endif()
