//===- aster-translate.cpp - amdgcn IR to assembly / hsaco ---------------===//
#include "recovery/Recovery.h"
#include "target/Translate.h"
#include "target/raise/Raise.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Support/LogicalResult.h"

int main(int argc, char **argv) {
  aster::installFatalErrorRecovery();
  aster::target::registerTranslations();
  aster::raise::registerRaiseTranslations();
  return mlir::failed(
             mlir::mlirTranslateMain(argc, argv, "aster translation driver"))
             ? 1
             : 0;
}
