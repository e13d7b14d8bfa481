//===- MemOps.cpp - atomic read-modify-write ------------------------------===//
#include "emulator/MemOps.h"

namespace aster::emu {

static uint64_t applyOp(AtomOp op, unsigned bytes, uint64_t old, uint64_t data) {
  bool w64 = bytes == 8;
  uint64_t mask = w64 ? ~0ull : 0xffffffffull;
  auto sx = [&](uint64_t v) { return w64 ? int64_t(v) : int64_t(int32_t(uint32_t(v))); };
  switch (op) {
  case AtomOp::Swap: return data;
  case AtomOp::CmpSwap: return data;  // handled by the caller
  case AtomOp::Add: return (old + data) & mask;
  case AtomOp::Sub: return (old - data) & mask;
  case AtomOp::SMin: return sx(old) < sx(data) ? old : data;
  case AtomOp::UMin: return old < data ? old : data;
  case AtomOp::SMax: return sx(old) > sx(data) ? old : data;
  case AtomOp::UMax: return old > data ? old : data;
  case AtomOp::And: return old & data;
  case AtomOp::Or: return old | data;
  case AtomOp::Xor: return old ^ data;
  case AtomOp::Inc: return old >= data ? 0 : (old + 1) & mask;
  case AtomOp::Dec: return (old == 0 || old > data) ? data : (old - 1) & mask;
  case AtomOp::FAdd:
    if (w64)
      return d2u(u2d(old) + u2d(data));
    return f2u(u2f(uint32_t(old)) + u2f(uint32_t(data)));
  case AtomOp::FMin:
  case AtomOp::FMax: {
    bool mx = op == AtomOp::FMax;
    if (w64) {
      double a = u2d(old), b = u2d(data);
      if (a != a) return data;
      if (b != b) return old;
      return (mx ? (b > a) : (b < a)) ? data : old;
    }
    float a = u2f(uint32_t(old)), b = u2f(uint32_t(data));
    if (a != a) return data;
    if (b != b) return old;
    return (mx ? (b > a) : (b < a)) ? data : old;
  }
  case AtomOp::PkAddF16: {
    uint32_t r = 0;
    for (unsigned h = 0; h < 2; ++h) {
      float s = f16ToF32(uint16_t(old >> (16 * h))) + f16ToF32(uint16_t(data >> (16 * h)));
      r |= uint32_t(f32ToF16(s)) << (16 * h);
    }
    return r;
  }
  case AtomOp::PkAddBF16: {
    uint32_t r = 0;
    for (unsigned h = 0; h < 2; ++h) {
      float s = bf16ToF32(uint16_t(old >> (16 * h))) + bf16ToF32(uint16_t(data >> (16 * h)));
      r |= uint32_t(f32ToBF16(s)) << (16 * h);
    }
    return r;
  }
  }
  return old;
}

uint64_t atomicRMW(uint8_t *p, unsigned bytes, AtomOp op, uint64_t data, uint64_t cmp,
                   bool threaded) {
  if (bytes == 8) {
    uint64_t *q = reinterpret_cast<uint64_t *>(p);
    if (!threaded) {
      uint64_t old;
      std::memcpy(&old, p, 8);
      uint64_t nv = op == AtomOp::CmpSwap ? (old == cmp ? data : old) : applyOp(op, 8, old, data);
      std::memcpy(p, &nv, 8);
      return old;
    }
    uint64_t old = __atomic_load_n(q, __ATOMIC_RELAXED);
    for (;;) {
      uint64_t nv = op == AtomOp::CmpSwap ? (old == cmp ? data : old) : applyOp(op, 8, old, data);
      if (__atomic_compare_exchange_n(q, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        return old;
    }
  }
  uint32_t *q = reinterpret_cast<uint32_t *>(p);
  uint32_t d = uint32_t(data), c = uint32_t(cmp);
  if (!threaded) {
    uint32_t old = ld32(p);
    uint32_t nv = op == AtomOp::CmpSwap ? (old == c ? d : old) : uint32_t(applyOp(op, 4, old, d));
    st32(p, nv);
    return old;
  }
  uint32_t old = __atomic_load_n(q, __ATOMIC_RELAXED);
  for (;;) {
    uint32_t nv = op == AtomOp::CmpSwap ? (old == c ? d : old) : uint32_t(applyOp(op, 4, old, d));
    if (__atomic_compare_exchange_n(q, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
      return old;
  }
}

} // namespace aster::emu
