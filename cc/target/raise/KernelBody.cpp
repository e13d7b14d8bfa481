//===- KernelBody.cpp - a kernel's code lines into blocks and ops --------===//
#include "target/raise/KernelBody.h"
#include "target/raise/KernelRecord.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;
using llvm::StringRef;

namespace aster::raise {

KernelBody::KernelBody(Operation *owner, InstParser &parser, bool keepUnknown,
                       std::vector<std::string> &errors)
    : kernel(owner), region(owner->getRegion(0)), parser(parser), keepUnknown(keepUnknown),
      errors(errors), values(owner->getRegion(0)), builder(owner->getContext()),
      current(&owner->getRegion(0).front()) {
  builder.setInsertionPointToEnd(current);
}

Block *KernelBody::blockFor(StringRef name) {
  Block *&b = labels[name];
  if (!b)
    b = new Block();
  return b;
}

static bool endsInTerminator(Block *b) {
  return !b->empty() && b->back().hasTrait<OpTrait::IsTerminator>();
}

/// Inserts `b` after the current block and continues there; the current
/// block falls through to it unless it already ends in a terminator.
void KernelBody::append(Block *b) {
  if (!endsInTerminator(current)) {
    OpBuilder ob(kernel->getContext());
    ob.setInsertionPointToEnd(current);
    cf::BranchOp::create(ob, kernel->getLoc(), b);
  }
  region.getBlocks().insertAfter(Region::iterator(current), b);
  current = b;
  builder.setInsertionPointToEnd(current);
  needNew = false;
}

void KernelBody::label(StringRef name, Location) {
  bool entry = current == &region.front();
  if (fallthrough) {
    // The block a conditional branch falls into gets this label.
    Block *f = fallthrough;
    fallthrough = nullptr;
    auto it = labels.find(name);
    if (it != labels.end() && it->second != f) {
      it->second->replaceAllUsesWith(f);
      delete it->second;
    }
    labels[name] = f;
    append(f);
    bound.insert(f);
    return;
  }
  if (!entry && current->empty() && !needNew) {
    // Two labels at one place name one block.
    auto it = labels.find(name);
    if (it != labels.end() && it->second != current) {
      if (bound.count(it->second)) {
        errors.push_back("label '" + name.str() + "' is defined twice");
        return;
      }
      it->second->replaceAllUsesWith(current);
      delete it->second;
    }
    labels[name] = current;
    bound.insert(current);
    return;
  }
  Block *b = blockFor(name);
  if (bound.count(b)) {
    errors.push_back("label '" + name.str() + "' is defined twice");
    return;
  }
  bound.insert(b);
  append(b);
}

void KernelBody::startBlockIfNeeded() {
  if (fallthrough) {
    Block *f = fallthrough;
    fallthrough = nullptr;
    bound.insert(f);
    append(f);
    return;
  }
  if (needNew)
    append(new Block());
}

void KernelBody::inst(StringRef text, Location loc, llvm::function_ref<std::string()> where,
                      ArrayRef<int32_t> encoding) {
  startBlockIfNeeded();
  // The same text (and code words) again in this body: a copy of the op its
  // first occurrence made, which the table matched, verified and printed
  // back as this text already; its operands are this body's entry values.
  llvm::SmallString<256> key;
  if (text.size() < 200) {
    key.append(text.begin(), text.end());
    key.push_back('\0');
    key.append(reinterpret_cast<const char *>(encoding.data()),
               reinterpret_cast<const char *>(encoding.data() + encoding.size()));
    auto it = made.find(key);
    if (it != made.end()) {
      builder.clone(*it->second)->setLoc(loc);
      return;
    }
  }
  std::string err;
  auto labelFn = [&](StringRef name) -> Block * {
    if (name.empty()) {
      if (!fallthrough)
        fallthrough = new Block();
      return fallthrough;
    }
    return blockFor(name);
  };
  FailureOr<Operation *> op =
      parser.parse(text, builder, loc, values, labelFn, err, encoding);
  if (failed(op)) {
    if (keepUnknown) {
      data(encoding, text, loc);
      return;
    }
    errors.push_back(where() + ": " + text.trim().str() + ": " + err);
    return;
  }
  if ((*op)->hasTrait<OpTrait::IsTerminator>() && (*op)->getNumSuccessors() != 2)
    needNew = true;
  else if (!key.empty() && (*op)->getNumSuccessors() == 0)
    made[key] = *op;
}

void KernelBody::data(ArrayRef<int32_t> words, StringRef text, Location loc) {
  startBlockIfNeeded();
  DenseI32ArrayAttr w = words.empty() ? DenseI32ArrayAttr()
                                      : builder.getDenseI32ArrayAttr(words);
  StringAttr t = text.empty() ? StringAttr() : builder.getStringAttr(text.trim());
  DataOp::create(builder, loc, w, t);
}

void KernelBody::finish(StringRef where) {
  for (auto &kv : labels)
    if (!bound.count(kv.second)) {
      errors.push_back(where.str() + ": branch to label '" + kv.first().str() +
                       "' which is not in this kernel");
      // Owned by the region so it goes with the (rejected) module.
      region.push_back(kv.second);
    }
  if (fallthrough) {
    errors.push_back(where.str() + ": the code ends with a conditional branch");
    region.push_back(fallthrough);
    fallthrough = nullptr;
  }
  // A label after the last instruction that nothing branches to (`.Lend:`
  // for `.size`) leaves an empty block.
  if (current != &region.front() && current->empty() &&
      current->hasNoPredecessors()) {
    Block *prev = current->getPrevNode();
    current->erase();
    current = prev;
  }
  // Data after the last terminator (nothing branches there) is kept as the
  // kernel's `code_tail`: a block of only data would have no terminator.
  if (current != &region.front() && current->hasNoPredecessors() &&
      !current->empty() && llvm::all_of(*current, [](Operation &o) { return isa<DataOp>(o); })) {
    std::string tail;
    llvm::raw_string_ostream os(tail);
    for (Operation &o : *current)
      writeDataLine(cast<DataOp>(o), os);
    kernel->setAttr(kCodeTailAttr, StringAttr::get(kernel->getContext(), tail));
    current->erase();
    return;
  }
  if (isa<DeviceFunctionOp>(kernel)) {
    // A device function returns to its caller.
    if (current->empty() || (!endsInTerminator(current) &&
                             current->back().getName().getStringRef() != "amdgcn.s_setpc_b64"))
      errors.push_back(where.str() + ": the device function does not end with s_setpc_b64 "
                                     "or a branch");
    return;
  }
  if (!endsInTerminator(current))
    errors.push_back(where.str() + ": the code does not end with s_endpgm or a branch");
}

} // namespace aster::raise
