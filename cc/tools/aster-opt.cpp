//===- aster-opt.cpp - MLIR opt driver with aster's dialect and passes ---===//
#include "dialect/Dialect.h"
#include "dialect/sass/Dialect.h"
#include "lower/Lower.h"
#include "transforms/Passes.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  aster::amdgcn::registerAllDialects(registry);
  aster::sass::registerSassDialect(registry);
  aster::registerAllPasses();
  aster::lower::registerUpstreamDialects(registry); // amdgcn-lower's input
  aster::lower::registerLowerPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "aster optimizer driver\n", registry));
}
