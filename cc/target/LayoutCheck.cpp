//===- LayoutCheck.cpp - refuse layouts LLVM MC cannot finish ------------===//
#include "target/LayoutCheck.h"
#include "target/AsmSizeCheck.h"

#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAssembler.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSection.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace aster::target {

std::optional<LayoutProblem> findLayoutProblem(const MCAssembler &as) {
  const uint64_t nop = std::max(1u, as.getBackend().getMinimumNopSize());
  for (const MCSection &sec : as) {
    // The offset from the section's start while it is known exactly.
    bool known = true;
    uint64_t off = 0;
    for (const MCFragment &f : sec) {
      off += f.getFixedSize();
      switch (f.getKind()) {
      case MCFragment::FT_Data:
      case MCFragment::FT_Relaxable:
        off += f.getVarSize();
        break;
      case MCFragment::FT_Align: {
        uint64_t a = f.getAlignment().value();
        if (!known) {
          if (f.hasAlignEmitNops())
            return LayoutProblem{
                SMLoc(), "code alignment to " + std::to_string(a) + " bytes in section " +
                             sec.getName().str() +
                             " follows .org, .uleb128/.sleb128 or a .fill/.skip of a "
                             "size not known before layout: aster cannot check that s_nop "
                             "padding (4 bytes) reaches it; give a fill value (e.g. "
                             ".p2align 2, 0)"};
          break; // the padding is bytes of any size: still unknown after it
        }
        uint64_t pad = (a - off % a) % a;
        if (f.hasAlignEmitNops() && pad % nop != 0)
          return LayoutProblem{
              SMLoc(), "code alignment to " + std::to_string(a) + " bytes at offset " +
                           std::to_string(off) + " of section " + sec.getName().str() +
                           ": s_nop padding comes in " + std::to_string(nop) +
                           "-byte units and the code before it is not a multiple of " +
                           std::to_string(nop) + " bytes (LLVM MC would loop forever); "
                           "give a fill value (e.g. .p2align 2, 0) or keep data out of "
                           "code"};
        if (f.getAlignMaxBytesToEmit() == 0 || pad <= f.getAlignMaxBytesToEmit())
          off += pad;
        break;
      }
      case MCFragment::FT_Fill: {
        const auto &fill = llvm::cast<MCFillFragment>(f);
        int64_t n = 0;
        if (!fill.getNumValues().evaluateAsAbsolute(n)) {
          known = false;
          break;
        }
        if (n < 0)
          break; // MC reports a negative count
        if ((uint64_t)n > kMaxBytes / std::max<uint64_t>(1, fill.getValueSize()))
          return LayoutProblem{fill.getLoc(),
                               "a fill of " + std::to_string(n) + " x " +
                                   std::to_string(fill.getValueSize()) +
                                   " bytes; aster assembles at most " +
                                   std::to_string(kMaxBytes) + " bytes per directive"};
        off += (uint64_t)n * fill.getValueSize();
        break;
      }
      case MCFragment::FT_Nops: {
        int64_t n = llvm::cast<MCNopsFragment>(f).getNumBytes();
        if (n > 0)
          off += n;
        break;
      }
      default: // .org, LEB, debug info: sizes known only to the layout
        known = false;
        break;
      }
      if (off > kMaxBytes * 4)
        return LayoutProblem{SMLoc(), "section " + sec.getName().str() + " would hold more than " +
                                          std::to_string(kMaxBytes * 4) + " bytes"};
    }
  }
  return std::nullopt;
}

} // namespace aster::target
