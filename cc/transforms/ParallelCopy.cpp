//===- ParallelCopy.cpp - register moves that happen "at once" -----------===//
#include "transforms/ParallelCopy.h"

#include "dialect/Dialect.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

Operation *emitMove(OpBuilder &b, Location loc, RegKind kind, unsigned dst,
                    unsigned src) {
  const char *mn = kind == RegKind::VGPR   ? "v_mov_b32"
                   : kind == RegKind::SGPR ? "s_mov_b32"
                                           : "v_accvgpr_mov_b32";
  MLIRContext *ctx = b.getContext();
  Value from = RegOp::create(b, loc, RegType::get(ctx, kind, src)).getResult();
  OperationState st(loc, getInstOpName(ctx, *ISA::lookup(mn)));
  st.addOperands(from);
  st.addTypes(RegType::get(ctx, kind, dst));
  return b.create(st);
}

FailureOr<unsigned> emitParallelCopy(OpBuilder &b, Location loc, RegKind kind,
                                     ArrayRef<std::pair<unsigned, unsigned>> in,
                                     int temp) {
  SmallVector<std::pair<unsigned, unsigned>> pending;
  for (auto m : in)
    if (m.first != m.second)
      pending.push_back(m);
  unsigned count = 0;
  auto isSource = [&](unsigned u, size_t except) {
    for (size_t k = 0; k < pending.size(); ++k)
      if (k != except && pending[k].second == u)
        return true;
    return false;
  };
  while (!pending.empty()) {
    bool progress = false;
    for (size_t k = 0; k < pending.size(); ++k) {
      if (isSource(pending[k].first, k))
        continue;
      emitMove(b, loc, kind, pending[k].first, pending[k].second);
      ++count;
      pending.erase(pending.begin() + k);
      progress = true;
      break;
    }
    if (progress)
      continue;
    // Only cycles remain: save one destination in temp and read it from there.
    if (temp < 0)
      return failure();
    unsigned d = pending.front().first;
    emitMove(b, loc, kind, temp, d);
    ++count;
    for (auto &m : pending)
      if (m.second == d)
        m.second = temp;
  }
  return count;
}

} // namespace aster
