//===- Copy.cpp - a deep copy of IR, op for op ----------------------------===//
#include "dialect/Copy.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Region.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace aster {
namespace {

/// Values keyed by address with a hash that keeps the order of allocation:
/// the ops of a block are allocated one after another, so inserting their
/// results walks the table forward (the prefetcher's case) instead of
/// touching a random cache line per value, which at 100k+ ops costs a cache
/// miss each.
struct AddressOrder : llvm::DenseMapInfo<Value> {
  static unsigned getHashValue(Value v) {
    return (unsigned)((uintptr_t)v.getAsOpaquePointer() >> 4);
  }
};

class Copier {
public:
  Operation *copy(Operation *op) {
    Operation *root = copyOp(op);
    // Operands named before their definition (a block laid out before one
    // that dominates it, graph regions): set now that everything is copied.
    for (auto [user, index, old] : later) {
      auto it = map.find(old);
      if (it != map.end())
        user->setOperand(index, it->second);
    }
    return root;
  }

private:
  Operation *copyOp(Operation *op) {
    llvm::SmallVector<Value, 8> operands;
    operands.reserve(op->getNumOperands());
    for (Value v : op->getOperands()) {
      auto it = map.find(v);
      operands.push_back(it == map.end() ? v : it->second);
    }
    llvm::SmallVector<Block *, 2> successors;
    for (Block *b : op->getSuccessors())
      successors.push_back(blocks.lookup(b) ? blocks.lookup(b) : b);
    Operation *n = Operation::create(op->getLoc(), op->getName(), op->getResultTypes(), operands,
                                     op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
                                     successors, op->getNumRegions());
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if (operands[i] == op->getOperand(i))
        later.push_back({n, i, operands[i]});
    for (auto [from, to] : llvm::zip(op->getResults(), n->getResults()))
      map.try_emplace(from, to);
    for (auto [from, to] : llvm::zip(op->getRegions(), n->getRegions()))
      copyRegion(from, to);
    return n;
  }

  void copyRegion(Region &from, Region &to) {
    // Blocks (and their arguments) first: branches may name later blocks.
    for (Block &b : from) {
      Block *nb = new Block();
      blocks[&b] = nb;
      for (BlockArgument a : b.getArguments())
        map.try_emplace(a, nb->addArgument(a.getType(), a.getLoc()));
      to.push_back(nb);
    }
    for (Block &b : from) {
      Block *nb = blocks[&b];
      for (Operation &op : b)
        nb->push_back(copyOp(&op));
    }
  }

  struct Later {
    Operation *user;
    unsigned index;
    Value old;
  };
  llvm::DenseMap<Value, Value, AddressOrder> map;
  llvm::DenseMap<Block *, Block *> blocks;
  llvm::SmallVector<Later> later;
};

} // namespace

Operation *copyOperation(Operation *op) { return Copier().copy(op); }

} // namespace aster
