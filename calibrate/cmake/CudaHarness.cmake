# goodput-calibrate: the CUDA harness (GOODPUT_HAVE_CUDA only).

# Kernel architectures: sm_90 (H100/H200) and sm_100 (B200) unless the user chose
# (-DCMAKE_CUDA_ARCHITECTURES=... or CUDAARCHS); CMake's own default does not count.
set(GOODPUT_CALIB_CUDA_ARCHITECTURES 90 100)
if(DEFINED ENV{CUDAARCHS})
  set(GOODPUT_CALIB_CUDA_ARCHITECTURES $ENV{CUDAARCHS})
elseif(DEFINED CMAKE_CUDA_ARCHITECTURES)
  get_property(_goodput_arch_help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
  if(NOT _goodput_arch_help STREQUAL "CUDA architectures")
    set(GOODPUT_CALIB_CUDA_ARCHITECTURES ${CMAKE_CUDA_ARCHITECTURES})
  endif()
endif()
message(STATUS "goodput-calibrate: CUDA architectures ${GOODPUT_CALIB_CUDA_ARCHITECTURES}")

# NCCL is optional: without it the harness skips the all-to-all and says so in the profile.
find_path(GOODPUT_NCCL_INCLUDE_DIR nccl.h
  HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME PATH_SUFFIXES include)
find_library(GOODPUT_NCCL_LIBRARY nccl
  HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME PATH_SUFFIXES lib lib64)
if(GOODPUT_NCCL_INCLUDE_DIR AND GOODPUT_NCCL_LIBRARY)
  set(GOODPUT_HAVE_NCCL ON)
  message(STATUS "goodput-calibrate: NCCL ${GOODPUT_NCCL_LIBRARY}")
else()
  set(GOODPUT_HAVE_NCCL OFF)
  message(STATUS "goodput-calibrate: NCCL not found; the NCCL all-to-all will not be measured")
endif()

# cuDNN is optional (GOODPUT_CALIB_USE_CUDNN, default ON): found, the harness links it for the
# fused attention kernel (harness/fused_attention_bench.*) and records its version; absent, it
# says so in the profile and the simulator uses the attention GEMM tiles.
option(GOODPUT_CALIB_USE_CUDNN "goodput-calibrate: use cuDNN for fused attention when found" ON)
set(GOODPUT_HAVE_CUDNN OFF)
if(GOODPUT_CALIB_USE_CUDNN)
  find_path(GOODPUT_CUDNN_INCLUDE_DIR cudnn_graph.h
    HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV CUDNN_HOME PATH_SUFFIXES include)
  find_library(GOODPUT_CUDNN_LIBRARY cudnn
    HINTS ${CUDAToolkit_LIBRARY_DIR} ENV CUDNN_HOME PATH_SUFFIXES lib lib64)
  if(GOODPUT_CUDNN_INCLUDE_DIR AND GOODPUT_CUDNN_LIBRARY)
    set(GOODPUT_HAVE_CUDNN ON)
  endif()
endif()
if(GOODPUT_HAVE_CUDNN)
  message(STATUS "goodput-calibrate: cuDNN ${GOODPUT_CUDNN_LIBRARY}")
else()
  message(STATUS "goodput-calibrate: cuDNN not used; fused attention will not be measured")
endif()

add_library(goodput_calibrate_device STATIC
  harness/attention_bench.cpp
  harness/bench_context.cpp
  harness/device_info.cpp
  harness/fused_attention_bench.cpp
  harness/gemm_bench.cpp
  harness/gemm_kernels.cu
  harness/gemm_verify.cpp
  harness/l2_flush.cu
  harness/lt_matmul.cpp
  harness/memory_bench.cpp
  harness/memory_kernels.cu
  harness/multi_gpu_bench.cpp
  harness/reshard_bench.cpp
  harness/reshard_kernels.cu
  harness/run_calibration.cpp
  harness/timer.cpp
)
set_target_properties(goodput_calibrate_device PROPERTIES
  CUDA_ARCHITECTURES "${GOODPUT_CALIB_CUDA_ARCHITECTURES}"
  CUDA_STANDARD 17
  CUDA_STANDARD_REQUIRED ON)
target_compile_options(goodput_calibrate_device PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
target_link_libraries(goodput_calibrate_device
  PUBLIC goodput_calibration CUDA::cudart CUDA::cublas CUDA::cublasLt ${CMAKE_DL_LIBS}
  PRIVATE goodput_warnings)
if(GOODPUT_HAVE_NCCL)
  target_compile_definitions(goodput_calibrate_device PRIVATE GOODPUT_HAVE_NCCL=1)
  target_include_directories(goodput_calibrate_device PRIVATE ${GOODPUT_NCCL_INCLUDE_DIR})
  target_link_libraries(goodput_calibrate_device PRIVATE ${GOODPUT_NCCL_LIBRARY})
else()
  target_compile_definitions(goodput_calibrate_device PRIVATE GOODPUT_HAVE_NCCL=0)
endif()

if(GOODPUT_HAVE_CUDNN)
  target_compile_definitions(goodput_calibrate_device PRIVATE GOODPUT_HAVE_CUDNN=1)
  target_include_directories(goodput_calibrate_device PRIVATE ${GOODPUT_CUDNN_INCLUDE_DIR})
  target_link_libraries(goodput_calibrate_device PRIVATE ${GOODPUT_CUDNN_LIBRARY})
else()
  target_compile_definitions(goodput_calibrate_device PRIVATE GOODPUT_HAVE_CUDNN=0)
endif()

add_executable(goodput-calibrate harness/main.cpp)
target_link_libraries(goodput-calibrate PRIVATE goodput_calibrate_device goodput_calibrate_cli goodput_warnings)
