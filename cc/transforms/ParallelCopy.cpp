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

/// Exchanges units x and y of `kind`; returns the instructions emitted or 0
/// if this class cannot.
static unsigned emitSwap(OpBuilder &b, Location loc, RegKind kind, unsigned x,
                         unsigned y, bool sccFree) {
  MLIRContext *ctx = b.getContext();
  auto reg = [&](unsigned u) {
    return RegOp::create(b, loc, RegType::get(ctx, kind, u)).getResult();
  };
  if (kind == RegKind::VGPR) {
    OperationState st(loc, getInstOpName(ctx, *ISA::lookup("v_swap_b32")));
    st.addOperands({reg(x), reg(y)});
    st.addTypes({RegType::get(ctx, kind, x), RegType::get(ctx, kind, y)});
    b.create(st);
    return 1;
  }
  if (kind == RegKind::SGPR && sccFree) {
    // x ^= y; y ^= x; x ^= y
    for (auto [d, o] : {std::pair{x, y}, std::pair{y, x}, std::pair{x, y}}) {
      OperationState st(loc, getInstOpName(ctx, *ISA::lookup("s_xor_b32")));
      st.addOperands({reg(d), reg(o)});
      st.addTypes(RegType::get(ctx, kind, d));
      b.create(st);
    }
    return 3;
  }
  return 0;
}

FailureOr<unsigned> emitParallelCopy(OpBuilder &b, Location loc, RegKind kind,
                                     ArrayRef<std::pair<unsigned, unsigned>> in,
                                     int temp, bool sccFree) {
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
    // Only cycles remain. Without a free unit, exchange the first move's
    // registers: its destination is then done and its source holds what the
    // destination held.
    if (temp < 0) {
      auto [d, src] = pending.front();
      unsigned n = emitSwap(b, loc, kind, d, src, sccFree);
      if (!n)
        return failure();
      count += n;
      pending.erase(pending.begin());
      for (auto &m : pending)
        if (m.second == d)
          m.second = src;
      llvm::erase_if(pending, [](auto &m) { return m.first == m.second; });
      continue;
    }
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
