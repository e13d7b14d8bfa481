//===- SemDSTranspose.cpp - gfx950 transposing LDS reads ------------------===//
//
// ds_read_b64_tr_b16 / _b8 / _b4 and ds_read_b96_tr_b6 (CDNA4 ISA 11.4,
// "MFMA Transpose Load from LDS"): every lane reads 64 (96) bits at its
// address (vaddr + offset), and within each group of 16 lanes the data is
// transposed. With w the element size and N = 64 / w (16 for b6) elements
// per lane, the group's loaded data in lane order is an array E of 16 * N
// elements (E[j * N + i] = element i of lane j, element i at bits
// [i * w, (i + 1) * w)); lane n of the group receives E[16 * k + n] as its
// element k. Read as a matrix: the group's 16 * N elements are N rows of 16
// (one row of K, 16 values of M or N), and lane n takes column n.
//
// Sources, which agree: AMD's rocRoller hardware test of the four
// instructions (TransposeLoadsTest: per-lane addresses, input and expected
// output for b16, b8, b6 and b4), Triton's AMD lowering of dot operands
// through ds_read_tr (chooseDsReadB64TrLayout: lane a + 4k of a 16-lane
// group reads row k, values 4a..4a+3, for 16-bit; a + 2k and 8a.. for 8-bit)
// and Modular's ds_read_tr16_b64 wrapper (the same 4x4 lane arrangement).
// The document requires a full EXEC and addresses aligned to the data size
// (rocRoller: 16 bytes for b96); anything else fails the wave as not
// emulated.
//
//===----------------------------------------------------------------------===//
#include "emulator/MemOps.h"

#include <cstring>
#include <string>

namespace aster::emu {

namespace {

/// Bits [bit, bit + n) of a little-endian byte array (n <= 16).
u32 getBits(const uint8_t *p, unsigned bit, unsigned n) {
  u32 v = 0;
  for (unsigned i = 0; i < n; ++i)
    v |= u32((p[(bit + i) / 8] >> ((bit + i) % 8)) & 1) << i;
  return v;
}

template <unsigned ElemBits, unsigned LaneBits> void dsReadTr(Wave &w, const Inst &in) {
  constexpr unsigned N = LaneBits / ElemBits, laneBytes = LaneBits / 8;
  constexpr unsigned align = LaneBits == 96 ? 16 : 8;
  if (in.flags & IF_GDS) {
    w.fail(in, "GDS is not emulated");
    return;
  }
  if (w.exec() != ~0ull) {
    w.fail(in, "a transposing LDS read with a partial EXEC is not emulated (the ISA "
               "requires all lanes)");
    return;
  }
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  uint8_t data[64 * 12];
  for (unsigned l = 0; l < 64; ++l) {
    u64 addr = u64(A[l]) + u32(in.offset);
    if (addr % align) {
      w.fail(in, "lane " + std::to_string(l) + ": LDS address " + std::to_string(addr) +
                     " is not aligned to " + std::to_string(align) +
                     " bytes (undefined for transposing reads)");
      return;
    }
    if (addr + laneBytes > w.L->ldsSize) {
      if (w.L->opts.strict) {
        ldsFault(w, in, l, addr, laneBytes);
        return;
      }
      std::memset(data + l * laneBytes, 0, laneBytes);
      continue;
    }
    std::memcpy(data + l * laneBytes, w.wg->lds.data() + addr, laneBytes);
  }
  for (unsigned l = 0; l < 64; ++l) {
    const uint8_t *group = data + (l / 16) * 16 * laneBytes;
    unsigned n = l % 16;
    uint8_t out[12] = {};
    for (unsigned k = 0; k < N; ++k) {
      u32 e = getBits(group, (16 * k + n) * ElemBits, ElemBits);
      for (unsigned i = 0; i < ElemBits; ++i)  // 6-bit elements straddle dwords
        out[(k * ElemBits + i) / 8] |= uint8_t(((e >> i) & 1) << ((k * ElemBits + i) % 8));
    }
    for (unsigned r = 0; r < LaneBits / 32; ++r)
      vdst(w, in.dst(), r)[l] = ld32(out + 4 * r);
  }
}

} // namespace

void registerDSTranspose(SemTable &t) {
  auto add = [&](const char *n, SemFn f) {
    t.push_back({n, f, 1, ICls::LDS, uint16_t(SF_LOAD | SF_NO_SDWA), tys(Ty::B32)});
  };
  add("ds_read_b64_tr_b16", dsReadTr<16, 64>);
  add("ds_read_b64_tr_b8", dsReadTr<8, 64>);
  add("ds_read_b64_tr_b4", dsReadTr<4, 64>);
  add("ds_read_b96_tr_b6", dsReadTr<6, 96>);
}

} // namespace aster::emu
