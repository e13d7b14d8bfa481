# Locates Debian's LLVM/MLIR/LLD 22.1 and the tools the build and tests use.
set(ASTER_LLVM_PREFIX "/usr/lib/llvm-22" CACHE PATH "LLVM 22.1 install prefix")

find_package(LLVM 22.1 REQUIRED CONFIG HINTS "${ASTER_LLVM_PREFIX}/lib/cmake/llvm")
find_package(MLIR REQUIRED CONFIG HINTS "${ASTER_LLVM_PREFIX}/lib/cmake/mlir")
find_package(LLD REQUIRED CONFIG HINTS "${ASTER_LLVM_PREFIX}/lib/cmake/lld")
message(STATUS "aster: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS} ${LLD_INCLUDE_DIRS})
add_definitions(${LLVM_DEFINITIONS})
if(NOT LLVM_ENABLE_RTTI)
  set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -fno-rtti")
endif()

find_program(ASTER_LLVM_TBLGEN llvm-tblgen HINTS "${ASTER_LLVM_PREFIX}/bin" NO_DEFAULT_PATH REQUIRED)
find_program(ASTER_MLIR_TBLGEN mlir-tblgen HINTS "${ASTER_LLVM_PREFIX}/bin" NO_DEFAULT_PATH REQUIRED)
set(MLIR_TABLEGEN_EXE "${ASTER_MLIR_TBLGEN}")
