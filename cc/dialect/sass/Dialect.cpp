//===- Dialect.cpp - the `sass` dialect: registration ---------------------===//
#include "dialect/sass/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace aster::sass;

#include "dialect/sass/Sass_dialect_defs.inc"
#define GET_OP_CLASSES
#include "dialect/sass/Sass_op_defs.inc"

void SassDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialect/sass/Sass_op_defs.inc"
      >();
}

void aster::sass::registerSassDialect(DialectRegistry &registry) {
  registry.insert<SassDialect>();
}
