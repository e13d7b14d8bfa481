//===- SemSALU.cpp - scalar ALU: SOP1, SOP2, SOPK, SOPC -------------------===//
#include "emulator/Semantics.h"

namespace aster::emu {

namespace {


// ---- SOP2, 32-bit: D = f(a, b), SCC per op ----
#define SOP2(NAME, T, BODY)                                                     \
  void NAME(Wave &w, const Inst &in) {                                          \
    T a = T(sget##T(w, in.src(0))), b = T(sget##T(w, in.src(1)));               \
    bool &scc = w.scc;                                                          \
    (void)scc;                                                                  \
    T r;                                                                        \
    BODY;                                                                       \
    sset##T(w, in.dst(), r);                                                    \
  }
EMU_INLINE u32 sgetu32(const Wave &w, const Opnd &o) { return sget(w, o); }
EMU_INLINE u64 sgetu64(const Wave &w, const Opnd &o) { return sget64(w, o); }
EMU_INLINE void ssetu32(Wave &w, const Opnd &o, u32 v) { sset(w, o, v); }
EMU_INLINE void ssetu64(Wave &w, const Opnd &o, u64 v) { sset64(w, o, v); }

SOP2(s_add_u32, u32, r = a + b; scc = r < a)
SOP2(s_sub_u32, u32, r = a - b; scc = b > a)
SOP2(s_add_i32, u32, r = a + b; scc = ((~(a ^ b)) & (a ^ r)) >> 31)
SOP2(s_sub_i32, u32, r = a - b; scc = ((a ^ b) & (a ^ r)) >> 31)
SOP2(s_addc_u32, u32, u64 s = u64(a) + b + scc; r = u32(s); scc = s >> 32)
SOP2(s_subb_u32, u32, u64 s = u64(a) - b - scc; r = u32(s); scc = (s >> 32) != 0)
SOP2(s_min_i32, u32, scc = i32(a) < i32(b); r = scc ? a : b)
SOP2(s_min_u32, u32, scc = a < b; r = scc ? a : b)
SOP2(s_max_i32, u32, scc = i32(a) > i32(b); r = scc ? a : b)
SOP2(s_max_u32, u32, scc = a > b; r = scc ? a : b)
SOP2(s_cselect_b32, u32, r = scc ? a : b)
SOP2(s_cselect_b64, u64, r = scc ? a : b)
#define LOGIC(N, EXPR)                                                           \
  SOP2(s_##N##_b32, u32, r = (EXPR); scc = r != 0)                               \
  SOP2(s_##N##_b64, u64, r = (EXPR); scc = r != 0)
LOGIC(and, a & b)
LOGIC(or, a | b)
LOGIC(xor, a ^ b)
LOGIC(andn2, a & ~b)
LOGIC(orn2, a | ~b)
LOGIC(nand, ~(a & b))
LOGIC(nor, ~(a | b))
LOGIC(xnor, ~(a ^ b))
#undef LOGIC
SOP2(s_lshl_b32, u32, r = a << (b & 31); scc = r != 0)
SOP2(s_lshl_b64, u64, r = a << (sget(w, in.src(1)) & 63); scc = r != 0)
SOP2(s_lshr_b32, u32, r = a >> (b & 31); scc = r != 0)
SOP2(s_lshr_b64, u64, r = a >> (sget(w, in.src(1)) & 63); scc = r != 0)
SOP2(s_ashr_i32, u32, r = u32(i32(a) >> (b & 31)); scc = r != 0)
SOP2(s_ashr_i64, u64, r = u64(i64(a) >> (sget(w, in.src(1)) & 63)); scc = r != 0)
SOP2(s_bfm_b32, u32, r = ((a & 31) ? ((1u << (a & 31)) - 1) : 0) << (b & 31))
SOP2(s_mul_i32, u32, r = a * b)
SOP2(s_mul_hi_u32, u32, r = u32((u64(a) * b) >> 32))
SOP2(s_mul_hi_i32, u32, r = u32(u64(i64(i32(a)) * i32(b)) >> 32))
SOP2(s_absdiff_i32, u32, i64 d = i64(i32(a)) - i32(b); r = u32(d < 0 ? -d : d); scc = r != 0)
SOP2(s_lshl1_add_u32, u32, u64 s = (u64(a) << 1) + b; r = u32(s); scc = (s >> 32) != 0)
SOP2(s_lshl2_add_u32, u32, u64 s = (u64(a) << 2) + b; r = u32(s); scc = (s >> 32) != 0)
SOP2(s_lshl3_add_u32, u32, u64 s = (u64(a) << 3) + b; r = u32(s); scc = (s >> 32) != 0)
SOP2(s_lshl4_add_u32, u32, u64 s = (u64(a) << 4) + b; r = u32(s); scc = (s >> 32) != 0)
SOP2(s_pack_ll_b32_b16, u32, r = (a & 0xffff) | (b << 16))
SOP2(s_pack_lh_b32_b16, u32, r = (a & 0xffff) | (b & 0xffff0000u))
SOP2(s_pack_hh_b32_b16, u32, r = (a >> 16) | (b & 0xffff0000u))

void s_bfm_b64(Wave &w, const Inst &in) {
  u32 a = sget(w, in.src(0)) & 63, b = sget(w, in.src(1)) & 63;
  sset64(w, in.dst(), (a ? ((1ull << a) - 1) : 0) << b);
}
template <bool Signed> void bfe32(Wave &w, const Inst &in) {
  u32 a = sget(w, in.src(0)), b = sget(w, in.src(1));
  unsigned off = b & 31, width = (b >> 16) & 0x7f;
  u32 r;
  if (width == 0)
    r = 0;
  else if (Signed) {
    i64 v = i64(i32(a)) >> off;
    unsigned wd = width > 32 ? 32 : width;
    r = u32(i64(u64(v) << (64 - wd)) >> (64 - wd));
  } else {
    u64 v = u64(a) >> off;
    r = width >= 32 ? u32(v) : u32(v & ((1ull << width) - 1));
  }
  sset(w, in.dst(), r);
  w.scc = r != 0;
}
template <bool Signed> void bfe64(Wave &w, const Inst &in) {
  u64 a = sget64(w, in.src(0));
  u32 b = sget(w, in.src(1));
  unsigned off = b & 63, width = (b >> 16) & 0x7f;
  u64 r;
  if (width == 0)
    r = 0;
  else {
    unsigned wd = width > 64 ? 64 : width;
    if (Signed) {
      i64 v = i64(a) >> off;
      r = wd == 64 ? u64(v) : u64(i64(u64(v) << (64 - wd)) >> (64 - wd));
    } else {
      u64 v = a >> off;
      r = wd == 64 ? v : v & ((1ull << wd) - 1);
    }
  }
  sset64(w, in.dst(), r);
  w.scc = r != 0;
}

// ---- SOP1 ----
#define SOP1(NAME, T, BODY)                                                     \
  void NAME(Wave &w, const Inst &in) {                                          \
    T a = T(sget##T(w, in.src(0)));                                             \
    T r;                                                                        \
    BODY;                                                                       \
    sset##T(w, in.dst(), r);                                                    \
  }
SOP1(s_mov_b32, u32, r = a)
SOP1(s_mov_b64, u64, r = a)
SOP1(s_not_b32, u32, r = ~a; w.scc = r != 0)
SOP1(s_not_b64, u64, r = ~a; w.scc = r != 0)
SOP1(s_brev_b32, u32, r = brev32(a))
SOP1(s_brev_b64, u64, r = brev64(a))
SOP1(s_sext_i32_i8, u32, r = u32(i32(int8_t(a))))
SOP1(s_sext_i32_i16, u32, r = u32(i32(int16_t(a))))
SOP1(s_abs_i32, u32, r = i32(a) < 0 ? 0u - a : a; w.scc = r != 0)

void s_cmov_b32(Wave &w, const Inst &in) { if (w.scc) sset(w, in.dst(), sget(w, in.src(0))); }
void s_cmov_b64(Wave &w, const Inst &in) { if (w.scc) sset64(w, in.dst(), sget64(w, in.src(0))); }

template <class T> u32 bcnt1(T v) { return u32(__builtin_popcountll(u64(v))); }
void s_bcnt0_i32_b32(Wave &w, const Inst &in) { u32 r = 32 - bcnt1(sget(w, in.src(0))); sset(w, in.dst(), r); w.scc = r != 0; }
void s_bcnt0_i32_b64(Wave &w, const Inst &in) { u32 r = 64 - bcnt1(sget64(w, in.src(0))); sset(w, in.dst(), r); w.scc = r != 0; }
void s_bcnt1_i32_b32(Wave &w, const Inst &in) { u32 r = bcnt1(sget(w, in.src(0))); sset(w, in.dst(), r); w.scc = r != 0; }
void s_bcnt1_i32_b64(Wave &w, const Inst &in) { u32 r = bcnt1(sget64(w, in.src(0))); sset(w, in.dst(), r); w.scc = r != 0; }
void s_ff0_i32_b32(Wave &w, const Inst &in) { u32 a = ~sget(w, in.src(0)); sset(w, in.dst(), a ? u32(__builtin_ctz(a)) : ~0u); }
void s_ff0_i32_b64(Wave &w, const Inst &in) { u64 a = ~sget64(w, in.src(0)); sset(w, in.dst(), a ? u32(__builtin_ctzll(a)) : ~0u); }
void s_ff1_i32_b32(Wave &w, const Inst &in) { u32 a = sget(w, in.src(0)); sset(w, in.dst(), a ? u32(__builtin_ctz(a)) : ~0u); }
void s_ff1_i32_b64(Wave &w, const Inst &in) { u64 a = sget64(w, in.src(0)); sset(w, in.dst(), a ? u32(__builtin_ctzll(a)) : ~0u); }
void s_flbit_i32_b32(Wave &w, const Inst &in) { u32 a = sget(w, in.src(0)); sset(w, in.dst(), a ? u32(__builtin_clz(a)) : ~0u); }
void s_flbit_i32_b64(Wave &w, const Inst &in) { u64 a = sget64(w, in.src(0)); sset(w, in.dst(), a ? u32(__builtin_clzll(a)) : ~0u); }
void s_flbit_i32(Wave &w, const Inst &in) {
  u32 a = sget(w, in.src(0));
  u32 x = i32(a) < 0 ? ~a : a;
  sset(w, in.dst(), (a == 0 || a == ~0u) ? ~0u : u32(__builtin_clz(x)));
}
void s_flbit_i32_i64(Wave &w, const Inst &in) {
  u64 a = sget64(w, in.src(0));
  u64 x = i64(a) < 0 ? ~a : a;
  sset(w, in.dst(), (a == 0 || a == ~0ull) ? ~0u : u32(__builtin_clzll(x)));
}
void s_bitset0_b32(Wave &w, const Inst &in) { w.s[in.dst().reg] &= ~(1u << (sget(w, in.src(0)) & 31)); }
void s_bitset1_b32(Wave &w, const Inst &in) { w.s[in.dst().reg] |= 1u << (sget(w, in.src(0)) & 31); }
void s_bitset0_b64(Wave &w, const Inst &in) { sset64(w, in.dst(), sget64(w, in.dst()) & ~(1ull << (sget(w, in.src(0)) & 63))); }
void s_bitset1_b64(Wave &w, const Inst &in) { sset64(w, in.dst(), sget64(w, in.dst()) | (1ull << (sget(w, in.src(0)) & 63))); }

template <class T> T wqm(T a) {
  T r = 0;
  for (unsigned q = 0; q < sizeof(T) * 2; ++q)
    if ((a >> (4 * q)) & 0xf)
      r |= T(0xf) << (4 * q);
  return r;
}
void s_wqm_b32(Wave &w, const Inst &in) { u32 r = wqm(sget(w, in.src(0))); sset(w, in.dst(), r); w.scc = r != 0; }
void s_wqm_b64(Wave &w, const Inst &in) { u64 r = wqm(sget64(w, in.src(0))); sset64(w, in.dst(), r); w.scc = r != 0; }
template <class T> T quadmask(T a) {
  T r = 0;
  for (unsigned q = 0; q < sizeof(T) * 2; ++q)
    if ((a >> (4 * q)) & 0xf)
      r |= T(1) << q;
  return r;
}
void s_quadmask_b32(Wave &w, const Inst &in) { u32 r = quadmask(sget(w, in.src(0))); sset(w, in.dst(), r); w.scc = r != 0; }
void s_quadmask_b64(Wave &w, const Inst &in) { u64 r = quadmask(sget64(w, in.src(0))); sset64(w, in.dst(), r); w.scc = r != 0; }
void s_bitreplicate_b64_b32(Wave &w, const Inst &in) {
  u32 a = sget(w, in.src(0));
  u64 r = 0;
  for (unsigned i = 0; i < 32; ++i)
    if ((a >> i) & 1)
      r |= 3ull << (2 * i);
  sset64(w, in.dst(), r);
}
void s_movrels_b32(Wave &w, const Inst &in) { sset(w, in.dst(), w.s[(in.src(0).reg + w.s[SR_M0]) & 127]); }
void s_movrels_b64(Wave &w, const Inst &in) {
  unsigned r = (in.src(0).reg + w.s[SR_M0]) & 127;
  sset64(w, in.dst(), w.sgpr64(r));
}
void s_movreld_b32(Wave &w, const Inst &in) { w.s[(in.dst().reg + w.s[SR_M0]) & 127] = sget(w, in.src(0)); }
void s_movreld_b64(Wave &w, const Inst &in) { w.setSgpr64((in.dst().reg + w.s[SR_M0]) & 127, sget64(w, in.src(0))); }

// saveexec: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0
#define SAVEEXEC(NAME, EXPR)                                                    \
  void NAME(Wave &w, const Inst &in) {                                          \
    u64 s = sget64(w, in.src(0)), e = w.exec();                                 \
    u64 n = (EXPR);                                                             \
    sset64(w, in.dst(), e);                                                     \
    w.setExec(n);                                                               \
    w.scc = n != 0;                                                             \
  }
SAVEEXEC(s_and_saveexec_b64, s & e)
SAVEEXEC(s_or_saveexec_b64, s | e)
SAVEEXEC(s_xor_saveexec_b64, s ^ e)
SAVEEXEC(s_andn2_saveexec_b64, s & ~e)
SAVEEXEC(s_orn2_saveexec_b64, s | ~e)
SAVEEXEC(s_nand_saveexec_b64, ~(s & e))
SAVEEXEC(s_nor_saveexec_b64, ~(s | e))
SAVEEXEC(s_xnor_saveexec_b64, ~(s ^ e))
SAVEEXEC(s_andn1_saveexec_b64, ~s & e)
SAVEEXEC(s_orn1_saveexec_b64, ~s | e)
#undef SAVEEXEC
// wrexec: EXEC = f(S0, EXEC); D = new EXEC
void s_andn1_wrexec_b64(Wave &w, const Inst &in) {
  u64 n = ~sget64(w, in.src(0)) & w.exec();
  w.setExec(n);
  sset64(w, in.dst(), n);
  w.scc = n != 0;
}
void s_andn2_wrexec_b64(Wave &w, const Inst &in) {
  u64 n = sget64(w, in.src(0)) & ~w.exec();
  w.setExec(n);
  sset64(w, in.dst(), n);
  w.scc = n != 0;
}

// ---- SOPK: immediate is a 16-bit value (sign- or zero-extended) ----
EMU_INLINE u32 simm(const Inst &in) { return u32(i32(int16_t(uint16_t(in.src(0).imm)))); }
EMU_INLINE u32 uimm(const Inst &in, unsigned i) { return u32(uint16_t(in.src(i).imm)); }
void s_movk_i32(Wave &w, const Inst &in) { sset(w, in.dst(), simm(in)); }
void s_cmovk_i32(Wave &w, const Inst &in) { if (w.scc) sset(w, in.dst(), simm(in)); }
void s_addk_i32(Wave &w, const Inst &in) {
  u32 a = w.s[in.dst().reg], b = simm(in), r = a + b;
  w.scc = ((~(a ^ b)) & (a ^ r)) >> 31;
  sset(w, in.dst(), r);
}
void s_mulk_i32(Wave &w, const Inst &in) { sset(w, in.dst(), w.s[in.dst().reg] * simm(in)); }
#define CMPK(NAME, T, EXT, OP)                                                  \
  void NAME(Wave &w, const Inst &in) {                                          \
    T a = T(sget(w, in.src(0)));                                                \
    T b = T(EXT);                                                               \
    w.scc = a OP b;                                                             \
  }
CMPK(s_cmpk_eq_i32, i32, i32(int16_t(uint16_t(in.src(1).imm))), ==)
CMPK(s_cmpk_lg_i32, i32, i32(int16_t(uint16_t(in.src(1).imm))), !=)
CMPK(s_cmpk_gt_i32, i32, i32(int16_t(uint16_t(in.src(1).imm))), >)
CMPK(s_cmpk_ge_i32, i32, i32(int16_t(uint16_t(in.src(1).imm))), >=)
CMPK(s_cmpk_lt_i32, i32, i32(int16_t(uint16_t(in.src(1).imm))), <)
CMPK(s_cmpk_le_i32, i32, i32(int16_t(uint16_t(in.src(1).imm))), <=)
CMPK(s_cmpk_eq_u32, u32, uimm(in, 1), ==)
CMPK(s_cmpk_lg_u32, u32, uimm(in, 1), !=)
CMPK(s_cmpk_gt_u32, u32, uimm(in, 1), >)
CMPK(s_cmpk_ge_u32, u32, uimm(in, 1), >=)
CMPK(s_cmpk_lt_u32, u32, uimm(in, 1), <)
CMPK(s_cmpk_le_u32, u32, uimm(in, 1), <=)
#undef CMPK

// ---- SOPC ----
#define CMP(NAME, T, GET, OP)                                                   \
  void NAME(Wave &w, const Inst &in) {                                          \
    w.scc = T(GET(w, in.src(0))) OP T(GET(w, in.src(1)));                       \
  }
CMP(s_cmp_eq_i32, i32, sget, ==) CMP(s_cmp_lg_i32, i32, sget, !=)
CMP(s_cmp_gt_i32, i32, sget, >)  CMP(s_cmp_ge_i32, i32, sget, >=)
CMP(s_cmp_lt_i32, i32, sget, <)  CMP(s_cmp_le_i32, i32, sget, <=)
CMP(s_cmp_eq_u32, u32, sget, ==) CMP(s_cmp_lg_u32, u32, sget, !=)
CMP(s_cmp_gt_u32, u32, sget, >)  CMP(s_cmp_ge_u32, u32, sget, >=)
CMP(s_cmp_lt_u32, u32, sget, <)  CMP(s_cmp_le_u32, u32, sget, <=)
CMP(s_cmp_eq_u64, u64, sget64, ==) CMP(s_cmp_lg_u64, u64, sget64, !=)
#undef CMP
void s_bitcmp0_b32(Wave &w, const Inst &in) { w.scc = !((sget(w, in.src(0)) >> (sget(w, in.src(1)) & 31)) & 1); }
void s_bitcmp1_b32(Wave &w, const Inst &in) { w.scc = (sget(w, in.src(0)) >> (sget(w, in.src(1)) & 31)) & 1; }
void s_bitcmp0_b64(Wave &w, const Inst &in) { w.scc = !((sget64(w, in.src(0)) >> (sget(w, in.src(1)) & 63)) & 1); }
void s_bitcmp1_b64(Wave &w, const Inst &in) { w.scc = (sget64(w, in.src(0)) >> (sget(w, in.src(1)) & 63)) & 1; }

} // namespace

void registerSALU(SemTable &t) {
  const uint16_t B32 = tys(Ty::B32), B64 = tys(Ty::B64), I64 = tys(Ty::I64);
  auto s = [&](const char *n, SemFn f, uint8_t ndst, uint16_t ty, uint16_t flags = 0) {
    t.push_back({n, f, ndst, ICls::SALU, flags, ty});
  };
#define S2(N) s(#N, N, 1, B32);
#define S2_64(N) s(#N, N, 1, B64);
  S2(s_add_u32) S2(s_sub_u32) S2(s_add_i32) S2(s_sub_i32) S2(s_addc_u32) S2(s_subb_u32)
  S2(s_min_i32) S2(s_min_u32) S2(s_max_i32) S2(s_max_u32) S2(s_cselect_b32)
  S2_64(s_cselect_b64)
  S2(s_and_b32) S2(s_or_b32) S2(s_xor_b32) S2(s_andn2_b32) S2(s_orn2_b32) S2(s_nand_b32)
  S2(s_nor_b32) S2(s_xnor_b32)
  S2_64(s_and_b64) S2_64(s_or_b64) S2_64(s_xor_b64) S2_64(s_andn2_b64) S2_64(s_orn2_b64)
  S2_64(s_nand_b64) S2_64(s_nor_b64) S2_64(s_xnor_b64)
  S2(s_lshl_b32) S2(s_lshr_b32) S2(s_ashr_i32) S2(s_bfm_b32) S2(s_mul_i32) S2(s_mul_hi_u32)
  S2(s_mul_hi_i32) S2(s_absdiff_i32) S2(s_lshl1_add_u32) S2(s_lshl2_add_u32)
  S2(s_lshl3_add_u32) S2(s_lshl4_add_u32) S2(s_pack_ll_b32_b16) S2(s_pack_lh_b32_b16)
  S2(s_pack_hh_b32_b16) S2(s_bfm_b64)
  s("s_lshl_b64", s_lshl_b64, 1, tys(Ty::B64, Ty::B32));
  s("s_lshr_b64", s_lshr_b64, 1, tys(Ty::B64, Ty::B32));
  s("s_ashr_i64", s_ashr_i64, 1, tys(Ty::I64, Ty::B32));
  s("s_bfe_u32", bfe32<false>, 1, B32);
  s("s_bfe_i32", bfe32<true>, 1, B32);
  s("s_bfe_u64", bfe64<false>, 1, tys(Ty::B64, Ty::B32));
  s("s_bfe_i64", bfe64<true>, 1, tys(Ty::I64, Ty::B32));
#undef S2
#undef S2_64
  s("s_mov_b32", s_mov_b32, 1, B32);
  s("s_mov_b64", s_mov_b64, 1, B64);
  s("s_cmov_b32", s_cmov_b32, 1, B32);
  s("s_cmov_b64", s_cmov_b64, 1, B64);
  s("s_not_b32", s_not_b32, 1, B32);
  s("s_not_b64", s_not_b64, 1, B64);
  s("s_wqm_b32", s_wqm_b32, 1, B32);
  s("s_wqm_b64", s_wqm_b64, 1, B64);
  s("s_brev_b32", s_brev_b32, 1, B32);
  s("s_brev_b64", s_brev_b64, 1, B64);
  s("s_bcnt0_i32_b32", s_bcnt0_i32_b32, 1, B32);
  s("s_bcnt0_i32_b64", s_bcnt0_i32_b64, 1, B64);
  s("s_bcnt1_i32_b32", s_bcnt1_i32_b32, 1, B32);
  s("s_bcnt1_i32_b64", s_bcnt1_i32_b64, 1, B64);
  s("s_ff0_i32_b32", s_ff0_i32_b32, 1, B32);
  s("s_ff0_i32_b64", s_ff0_i32_b64, 1, B64);
  s("s_ff1_i32_b32", s_ff1_i32_b32, 1, B32);
  s("s_ff1_i32_b64", s_ff1_i32_b64, 1, B64);
  s("s_flbit_i32_b32", s_flbit_i32_b32, 1, B32);
  s("s_flbit_i32_b64", s_flbit_i32_b64, 1, B64);
  s("s_flbit_i32", s_flbit_i32, 1, B32);
  s("s_flbit_i32_i64", s_flbit_i32_i64, 1, I64);
  s("s_sext_i32_i8", s_sext_i32_i8, 1, B32);
  s("s_sext_i32_i16", s_sext_i32_i16, 1, B32);
  s("s_abs_i32", s_abs_i32, 1, B32);
  s("s_bitset0_b32", s_bitset0_b32, 1, B32, SF_READS_DST);
  s("s_bitset1_b32", s_bitset1_b32, 1, B32, SF_READS_DST);
  s("s_bitset0_b64", s_bitset0_b64, 1, B32, SF_READS_DST);
  s("s_bitset1_b64", s_bitset1_b64, 1, B32, SF_READS_DST);
  s("s_quadmask_b32", s_quadmask_b32, 1, B32);
  s("s_quadmask_b64", s_quadmask_b64, 1, B64);
  s("s_bitreplicate_b64_b32", s_bitreplicate_b64_b32, 1, B32);
  s("s_movrels_b32", s_movrels_b32, 1, B32, SF_READS_M0);
  s("s_movrels_b64", s_movrels_b64, 1, B64, SF_READS_M0);
  s("s_movreld_b32", s_movreld_b32, 0, B32, SF_READS_M0);
  s("s_movreld_b64", s_movreld_b64, 0, B64, SF_READS_M0);
  for (auto [n, f] : std::initializer_list<std::pair<const char *, SemFn>>{
           {"s_and_saveexec_b64", s_and_saveexec_b64},
           {"s_or_saveexec_b64", s_or_saveexec_b64},
           {"s_xor_saveexec_b64", s_xor_saveexec_b64},
           {"s_andn2_saveexec_b64", s_andn2_saveexec_b64},
           {"s_orn2_saveexec_b64", s_orn2_saveexec_b64},
           {"s_nand_saveexec_b64", s_nand_saveexec_b64},
           {"s_nor_saveexec_b64", s_nor_saveexec_b64},
           {"s_xnor_saveexec_b64", s_xnor_saveexec_b64},
           {"s_andn1_saveexec_b64", s_andn1_saveexec_b64},
           {"s_orn1_saveexec_b64", s_orn1_saveexec_b64},
           {"s_andn1_wrexec_b64", s_andn1_wrexec_b64},
           {"s_andn2_wrexec_b64", s_andn2_wrexec_b64}})
    s(n, f, 1, B64);
  // SOPK
  s("s_movk_i32", s_movk_i32, 1, B32);
  s("s_cmovk_i32", s_cmovk_i32, 1, B32);
  s("s_addk_i32", s_addk_i32, 1, B32, SF_READS_DST);
  s("s_mulk_i32", s_mulk_i32, 1, B32, SF_READS_DST);
#define K(N) s(#N, N, 0, B32);
  K(s_cmpk_eq_i32) K(s_cmpk_lg_i32) K(s_cmpk_gt_i32) K(s_cmpk_ge_i32) K(s_cmpk_lt_i32)
  K(s_cmpk_le_i32) K(s_cmpk_eq_u32) K(s_cmpk_lg_u32) K(s_cmpk_gt_u32) K(s_cmpk_ge_u32)
  K(s_cmpk_lt_u32) K(s_cmpk_le_u32)
  K(s_cmp_eq_i32) K(s_cmp_lg_i32) K(s_cmp_gt_i32) K(s_cmp_ge_i32) K(s_cmp_lt_i32)
  K(s_cmp_le_i32) K(s_cmp_eq_u32) K(s_cmp_lg_u32) K(s_cmp_gt_u32) K(s_cmp_ge_u32)
  K(s_cmp_lt_u32) K(s_cmp_le_u32) K(s_bitcmp0_b32) K(s_bitcmp1_b32)
#undef K
  s("s_cmp_eq_u64", s_cmp_eq_u64, 0, B64);
  s("s_cmp_lg_u64", s_cmp_lg_u64, 0, B64);
  s("s_bitcmp0_b64", s_bitcmp0_b64, 0, tys(Ty::B64, Ty::B32));
  s("s_bitcmp1_b64", s_bitcmp1_b64, 0, tys(Ty::B64, Ty::B32));
}

} // namespace aster::emu
