//===- SemGfx950.cpp - instructions gfx950 (CDNA4) adds -------------------===//
//
// Only in gfx950 code objects (the decoder's gfx950 subtarget decodes them):
//   v_cvt_f32_bf16        bf16 (low half, or high with op_sel) -> f32, exact
//   v_cvt_pk_f16_f32      two f32 -> f16 pair, round to nearest even
//   v_cvt_pk_bf16_f32     two f32 -> bf16 pair, round to nearest even
//   v_bitop3_b32          bitwise truth table over (src0, src1, src2): bit b
//                         of the result is bit (s0*4 + s1*2 + s2) of bitop3
//   v_permlane16_swap_b32 vdst, vsrc: the odd 16-lane rows of vdst trade
//                         places with the even rows of vsrc, within each
//                         half of the wave (vdst row 1 <-> vsrc row 0, row 3
//                         <-> row 2)
//   v_permlane32_swap_b32 vdst, vsrc: the upper 32 lanes of vdst trade
//                         places with the lower 32 of vsrc
//                         (both only with a full EXEC: which lanes take part
//                         under a partial one is not established here; so
//                         the VOP3 form's fi:1 / bound_ctrl:1, which LLVM's
//                         modifier syntax documents as what an inactive
//                         source lane gives (read anyway / write 0), change
//                         nothing in what is emulated)
//   v_prng_b32            one step of the ISA document's LFSR:
//                         (x << 1) ^ (x[31] ? 197 : 0)
//   v_ashr_pk_i8_i32      src0 >> src2[4:0] and src1 >> src2[4:0]
//   v_ashr_pk_u8_i32      (arithmetic), each saturated to [-128, 127] (i8) or
//                         [0, 255] (u8), packed as two bytes into a 16-bit
//                         result (the gfx9 16-bit rule: the low half with the
//                         high half zeroed, or with op_sel[3] the high half
//                         with the low half kept)
// The new MFMA shapes are in SemMFMA.cpp, v_minimum3/v_maximum3_f32 in
// SemVALUFloat.cpp, v_pk_minimum3/v_pk_maximum3_f16 in SemVOP3P.cpp, and the
// OCP fp8/bf8 meanings of gfx942 mnemonics in SemVALUConvert.cpp /
// SemMFMA.cpp (registerGfx950Ocp*), the f8f6f4 MFMAs (plain and scaled) in
// SemF8F6F4.cpp, the v_cvt_scalef32_* conversions in SemScaleCvt.cpp.
//
//===----------------------------------------------------------------------===//
#include "emulator/Semantics.h"

#include <string>
#include <utility>

namespace aster::emu {

namespace {


void v_cvt_f32_bf16(Wave &w, const Inst &in) {
  u32 t[64];
  const u32 *A = vget16(w, in.src(0), t, in.opsel & 1, true);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { D[l] = A[l] << 16; });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}

template <uint16_t (*Cvt)(float)> void cvtPk16F32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = u32(Cvt(u2f(A[l]))) | u32(Cvt(u2f(B[l]))) << 16; });
}

void v_bitop3_b32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1), *C = vget(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  // Sum of minterms: each set bit of the table adds the lanes' bits where
  // (a, b, c) has that pattern.
  u32 tt = in.aux & 0xff;
  forLanes(w.exec(), [&](unsigned l) {
    u32 a = A[l], b = B[l], c = C[l], r = 0;
    for (unsigned k = 0; k < 8; ++k)
      if (tt >> k & 1)
        r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    D[l] = r;
  });
}

void v_prng_b32(Wave &w, const Inst &in) {
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = (A[l] << 1) ^ ((A[l] >> 31) ? 197u : 0u); });
}

template <int Lo, int Hi> void ashrPk8(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1), *C = vget(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  bool hi = in.opsel & 8;
  forLanes(w.exec(), [&](unsigned l) {
    auto sat = [&](u32 x) {
      i32 v = i32(x) >> (C[l] & 31);
      return u32(v <= Lo ? Lo : v >= Hi ? Hi : v) & 0xffu;
    };
    write16(D[l], u16(sat(A[l]) | sat(B[l]) << 8), hi, false);
  });
}

template <unsigned Row> void permlaneSwap(Wave &w, const Inst &in) {
  if (w.exec() != ~0ull) {
    w.fail(in, std::string(Row == 16 ? "v_permlane16_swap_b32" : "v_permlane32_swap_b32") +
                   " with a partial EXEC is not emulated");
    return;
  }
  u32 *X = vdst(w, in.op[0]), *Y = vdst(w, in.op[1]);
  for (unsigned base = 0; base < 64; base += 2 * Row)
    for (unsigned l = 0; l < Row; ++l)
      std::swap(X[base + Row + l], Y[base + l]);
}

} // namespace

void registerGfx950(SemTable &t) {
  // Both operands are read and written.
  t.push_back({"v_permlane16_swap_b32", permlaneSwap<16>, 2, ICls::VALU,
               SF_READS_DST | SF_NO_SDWA, tys(Ty::B32)});
  t.push_back({"v_permlane32_swap_b32", permlaneSwap<32>, 2, ICls::VALU,
               SF_READS_DST | SF_NO_SDWA, tys(Ty::B32)});
  t.push_back({"v_cvt_f32_bf16", v_cvt_f32_bf16, 1, ICls::VALU, 0, tys(Ty::BF16)});
  t.push_back({"v_cvt_pk_f16_f32", cvtPk16F32<f32ToF16>, 1, ICls::VALU, SF_NO_CLAMP,
               tys(Ty::F32)});
  t.push_back({"v_cvt_pk_bf16_f32", cvtPk16F32<f32ToBF16>, 1, ICls::VALU, SF_NO_CLAMP,
               tys(Ty::F32)});
  t.push_back({"v_bitop3_b32", v_bitop3_b32, 1, ICls::VALU, SF_NO_SDWA, tys(Ty::B32)});
  t.push_back({"v_prng_b32", v_prng_b32, 1, ICls::VALU, 0, tys(Ty::B32)});
  t.push_back({"v_ashr_pk_i8_i32", ashrPk8<-128, 127>, 1, ICls::VALU,
               SF_NO_SDWA | SF_NO_CLAMP, tys(Ty::B32)});
  t.push_back({"v_ashr_pk_u8_i32", ashrPk8<0, 255>, 1, ICls::VALU, SF_NO_SDWA | SF_NO_CLAMP,
               tys(Ty::B32)});
}

} // namespace aster::emu
