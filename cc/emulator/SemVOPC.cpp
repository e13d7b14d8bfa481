//===- SemVOPC.cpp - vector compares (v_cmp_*, v_cmpx_*, v_cmp_class_*) ---===//
#include "emulator/Semantics.h"

#include <cmath>
#include <deque>
#include <string>

namespace aster::emu {

namespace {

enum CmpOp { C_F, C_LT, C_EQ, C_LE, C_GT, C_LG, C_GE, C_O, C_U, C_NGE, C_NLG, C_NGT, C_NLE,
             C_NEQ, C_NLT, C_TRU };

template <int Op, class T> EMU_INLINE bool cmp(T a, T b) {
  switch (Op) {
  case C_F: return false;
  case C_LT: return a < b;
  case C_EQ: return a == b;
  case C_LE: return a <= b;
  case C_GT: return a > b;
  case C_LG: return a < b || a > b;
  case C_GE: return a >= b;
  case C_O: return a == a && b == b;
  case C_U: return a != a || b != b;
  case C_NGE: return !(a >= b);
  case C_NLG: return !(a < b || a > b);
  case C_NGT: return !(a > b);
  case C_NLE: return !(a <= b);
  case C_NEQ: return !(a == b);
  case C_NLT: return !(a < b);
  default: return true;
  }
}

// Element fetchers: fill out[64] with the typed values of a source.
struct F16T {
  using E = float;
  static constexpr Ty ty = Ty::F16;
  static void get(Wave &w, const Opnd &o, E *out) {
    uint32_t t[64];
    const uint32_t *p = vget16(w, o, t, false, true);
    for (unsigned l = 0; l < 64; ++l)
      out[l] = f16ToF32(uint16_t(p[l]));
  }
};
struct F32T {
  using E = float;
  static constexpr Ty ty = Ty::F32;
  static void get(Wave &w, const Opnd &o, E *out) {
    uint32_t t[64];
    const uint32_t *p = vgetF32(w, o, t);
    for (unsigned l = 0; l < 64; ++l)
      out[l] = u2f(p[l]);
  }
};
struct F64T {
  using E = double;
  static constexpr Ty ty = Ty::F64;
  static void get(Wave &w, const Opnd &o, E *out) {
    uint64_t t[64];
    vgetF64(w, o, t);
    for (unsigned l = 0; l < 64; ++l)
      out[l] = u2d(t[l]);
  }
};
template <class X, Ty T> struct Int32T {
  using E = X;
  static constexpr Ty ty = T;
  static void get(Wave &w, const Opnd &o, E *out) {
    uint32_t t[64];
    const uint32_t *p = vget(w, o, t);
    for (unsigned l = 0; l < 64; ++l)
      out[l] = E(p[l]);
  }
};
template <class X, Ty T> struct Int64T {
  using E = X;
  static constexpr Ty ty = T;
  static void get(Wave &w, const Opnd &o, E *out) {
    uint64_t t[64];
    vget64(w, o, t);
    for (unsigned l = 0; l < 64; ++l)
      out[l] = E(t[l]);
  }
};
using I16T = Int32T<int16_t, Ty::B16>;
using U16T = Int32T<uint16_t, Ty::B16>;
using I32T = Int32T<int32_t, Ty::B32>;
using U32T = Int32T<uint32_t, Ty::B32>;
using I64T = Int64T<int64_t, Ty::I64>;
using U64T = Int64T<uint64_t, Ty::B64>;

template <class T, int Op, bool X> void vcmp(Wave &w, const Inst &in) {
  typename T::E a[64], b[64];
  T::get(w, in.src(0), a);
  T::get(w, in.src(1), b);
  uint64_t mask = 0;
  forLanes(w.exec(), [&](unsigned l) { mask |= uint64_t(cmp<Op>(a[l], b[l])) << l; });
  sset64(w, in.dst(), mask);
  if (X)
    w.setExec(mask);
}

/// Class bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0,
/// 7 +denormal, 8 +normal, 9 +inf.
template <class E> unsigned classOf(E x, bool quiet) {
  if (std::isnan(x))
    return quiet ? 1 : 0;
  bool neg = std::signbit(x);
  if (std::isinf(x))
    return neg ? 2 : 9;
  if (x == 0)
    return neg ? 5 : 6;
  if (std::fpclassify(x) == FP_SUBNORMAL)
    return neg ? 4 : 7;
  return neg ? 3 : 8;
}

template <int Kind, bool X> void vcmpClass(Wave &w, const Inst &in) {
  uint32_t t0[64], t1[64];
  const uint32_t *M = vget(w, in.src(1), t1);
  uint64_t mask = 0;
  if (Kind == 64) {
    uint64_t a[64];
    vgetF64(w, in.src(0), a);
    forLanes(w.exec(), [&](unsigned l) {
      unsigned c = classOf(u2d(a[l]), (a[l] >> 51) & 1);
      mask |= uint64_t((M[l] >> c) & 1) << l;
    });
  } else if (Kind == 32) {
    const uint32_t *A = vgetF32(w, in.src(0), t0);
    forLanes(w.exec(), [&](unsigned l) {
      unsigned c = classOf(u2f(A[l]), (A[l] >> 22) & 1);
      mask |= uint64_t((M[l] >> c) & 1) << l;
    });
  } else {
    const uint32_t *A = vget16(w, in.src(0), t0, false, true);
    forLanes(w.exec(), [&](unsigned l) {
      uint16_t h = uint16_t(A[l]);
      unsigned c = classOf(f16ToF32(h), (h >> 9) & 1);
      if ((h & 0x7c00) == 0 && (h & 0x3ff)) // an f16 denormal (a normal f32)
        c = h >> 15 ? 4 : 7;
      mask |= uint64_t((M[l] >> c) & 1) << l;
    });
  }
  sset64(w, in.dst(), mask);
  if (X)
    w.setExec(mask);
}

const char *const kFloatOps[] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o",
                                 "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"};
const char *const kIntOps[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
constexpr int kIntOpCodes[] = {C_F, C_LT, C_EQ, C_LE, C_GT, C_LG, C_GE, C_TRU};

template <class T, int... Ops>
void addFloat(SemTable &t, const char *suffix, std::integer_sequence<int, Ops...>) {
  ((t.push_back({intern(std::string("v_cmp_") + kFloatOps[Ops] + "_" + suffix),
                 vcmp<T, Ops, false>, 1, ICls::VALU, 0, tys(T::ty)}),
    t.push_back({intern(std::string("v_cmpx_") + kFloatOps[Ops] + "_" + suffix),
                 vcmp<T, Ops, true>, 1, ICls::VALU, 0, tys(T::ty)})),
   ...);
}
template <class T, int... Idx>
void addInt(SemTable &t, const char *suffix, std::integer_sequence<int, Idx...>) {
  ((t.push_back({intern(std::string("v_cmp_") + kIntOps[Idx] + "_" + suffix),
                 vcmp<T, kIntOpCodes[Idx], false>, 1, ICls::VALU, 0, tys(T::ty)}),
    t.push_back({intern(std::string("v_cmpx_") + kIntOps[Idx] + "_" + suffix),
                 vcmp<T, kIntOpCodes[Idx], true>, 1, ICls::VALU, 0, tys(T::ty)})),
   ...);
}

} // namespace

void registerVOPC(SemTable &t) {
  auto fops = std::make_integer_sequence<int, 16>();
  auto iops = std::make_integer_sequence<int, 8>();
  addFloat<F16T>(t, "f16", fops);
  addFloat<F32T>(t, "f32", fops);
  addFloat<F64T>(t, "f64", fops);
  addInt<I16T>(t, "i16", iops);
  addInt<U16T>(t, "u16", iops);
  addInt<I32T>(t, "i32", iops);
  addInt<U32T>(t, "u32", iops);
  addInt<I64T>(t, "i64", iops);
  addInt<U64T>(t, "u64", iops);
  t.push_back({"v_cmp_class_f16", vcmpClass<16, false>, 1, ICls::VALU, 0, tys(Ty::F16, Ty::B32)});
  t.push_back({"v_cmpx_class_f16", vcmpClass<16, true>, 1, ICls::VALU, 0, tys(Ty::F16, Ty::B32)});
  t.push_back({"v_cmp_class_f32", vcmpClass<32, false>, 1, ICls::VALU, 0, tys(Ty::F32, Ty::B32)});
  t.push_back({"v_cmpx_class_f32", vcmpClass<32, true>, 1, ICls::VALU, 0, tys(Ty::F32, Ty::B32)});
  t.push_back({"v_cmp_class_f64", vcmpClass<64, false>, 1, ICls::VALU, 0, tys(Ty::F64, Ty::B32)});
  t.push_back({"v_cmpx_class_f64", vcmpClass<64, true>, 1, ICls::VALU, 0, tys(Ty::F64, Ty::B32)});
}

} // namespace aster::emu
