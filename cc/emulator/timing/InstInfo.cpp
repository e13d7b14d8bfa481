//===- InstInfo.cpp - classify decoded instructions for the timing model --===//
#include "emulator/timing/InstInfo.h"
#include "emulator/timing/Costs.h"

#include "llvm/ADT/StringRef.h"

#include <mutex>

namespace aster::emu::timing {

namespace {

llvm::StringRef mnemonicOf(llvm::StringRef text) {
  llvm::StringRef mn = text.ltrim().split(' ').first;
  for (const char *suf : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (mn.consume_back(suf))
      break;
  return mn;
}

/// Bytes per lane of a memory access from the mnemonic's size suffix.
unsigned sizeSuffix(llvm::StringRef mn) {
  static const std::pair<const char *, unsigned> sizes[] = {
      {"dwordx4", 16}, {"dwordx3", 12}, {"dwordx2", 8}, {"_x2", 8},   {"dword", 4},
      {"b128", 16},    {"b96", 12},     {"b64", 8},     {"u64", 8},   {"i64", 8},
      {"f64", 8},      {"b32", 4},      {"short", 2},   {"b16", 2},   {"u16", 2},
      {"i16", 2},      {"byte", 1},     {"b8", 1},      {"u8", 1},    {"i8", 1}};
  for (auto &s : sizes)
    if (mn.contains(s.first))
      return s.second;
  return 4;
}

void classifyMemory(llvm::StringRef mn, const Inst &in, InstInfo &t) {
  if (mn.starts_with("global_")) t.addr = ADDR_GLOBAL;
  else if (mn.starts_with("flat_")) t.addr = ADDR_FLAT;
  else if (mn.starts_with("scratch_")) t.addr = ADDR_SCRATCH;
  else if (mn.starts_with("buffer_")) t.addr = ADDR_BUFFER;
  else if (mn.starts_with("ds_")) t.addr = ADDR_DS;
  t.laneBytes = uint8_t(sizeSuffix(mn));
  t.store = in.mem == MemKind::None && (mn.contains("store") || mn.contains("write"));
  t.atomic = t.addr != ADDR_DS && mn.contains("atomic");
  if (t.addr == ADDR_DS && (mn.contains("read2") || mn.contains("write2"))) {
    t.accesses = 2;
    t.stride2 = uint16_t(t.laneBytes * (mn.contains("st64") ? 64 : 1));
  }
}

} // namespace

std::vector<InstInfo> classify(const Program &prog) {
  std::vector<InstInfo> out(prog.insts.size());
  for (size_t i = 0; i < prog.insts.size(); ++i) {
    const Inst &in = prog.insts[i];
    InstInfo &t = out[i];
    llvm::StringRef mn = i < prog.text.size() ? mnemonicOf(prog.text[i]) : llvm::StringRef();
    // The table's row: by assembly mnemonic and, where forms share it (the
    // f8f6f4 MFMAs, one form per A/B format), by the source widths.
    const TableTiming *row = tableTiming(mn, in.nsrc() > 0 ? in.src(0).count : 0,
                                         in.nsrc() > 1 ? in.src(1).count : 0);
    switch (in.cls) {
    case ICls::SALU: t.unit = Unit::SALU; t.slot = SLOT_SCALAR; break;
    case ICls::SMEM: t.unit = Unit::SMEM; t.slot = SLOT_SCALAR; break;
    case ICls::VMEM: t.unit = Unit::VMEM; t.slot = SLOT_VMEM; break;
    case ICls::LDS: t.unit = Unit::LDS; t.slot = SLOT_LDS; break;
    case ICls::BRANCH: t.unit = Unit::Branch; t.slot = SLOT_BRANCH; break;
    case ICls::MFMA: t.unit = Unit::MFMA; t.slot = SLOT_VALU; break;
    case ICls::VALU:
      t.unit = row && row->trans ? Unit::TRANS : Unit::VALU;
      t.slot = SLOT_VALU;
      break;
    case ICls::OTHER: break;
    }
    if (t.unit == Unit::MFMA) {
      t.passes = uint8_t(row && row->passes ? row->passes : 4);
      // The accumulator input is src2; its tracked range is one of the reads.
      if (in.nsrc() >= 3 && in.src(2).isReg()) {
        const Opnd &c = in.src(2);
        unsigned first = c.kind == OpKind::A ? kTrackA + c.reg
                         : c.kind == OpKind::V ? kTrackV + c.reg : c.reg;
        for (unsigned r = 0; r < in.nreads; ++r)
          if (in.reads[r].first == first)
            t.srcC = int8_t(r);
      }
    }
    if (t.unit == Unit::VMEM || t.unit == Unit::LDS)
      classifyMemory(mn, in, t);
    if (t.unit == Unit::SMEM && (mn.starts_with("s_load_") || mn.starts_with("s_buffer_load_"))) {
      // Scalar loads: their bytes (4 per dword) for the scalar cache.
      t.addr = mn.starts_with("s_load_") ? ADDR_SMEM : ADDR_SBUFFER;
      unsigned dwords = mn.ends_with("x16") ? 16 : mn.ends_with("x8") ? 8 : mn.ends_with("x4") ? 4
                        : mn.ends_with("x3") ? 3 : mn.ends_with("x2") ? 2 : 1;
      t.laneBytes = uint8_t(4 * dwords);
    }
    if (mn == "s_nop") t.ctl = CTL_NOP;
    else if (mn == "s_sleep") t.ctl = CTL_SLEEP;
    else if (mn == "s_waitcnt") t.ctl = CTL_WAITCNT;
    else if (mn == "s_barrier") t.ctl = CTL_BARRIER;
    else if (mn == "s_endpgm") t.ctl = CTL_END;
  }
  return out;
}

std::shared_ptr<const ProgramFacts> programFacts(const Program &prog) {
  static std::mutex m;  // (launches of one code object on several threads)
  std::lock_guard<std::mutex> lk(m);
  if (prog.timingFacts)
    return std::static_pointer_cast<const ProgramFacts>(prog.timingFacts);
  auto f = std::make_shared<ProgramFacts>();
  f->info = classify(prog);
  f->stopAhead.reserve(f->info.size());
  f->serialAt.reserve(f->info.size());
  for (const InstInfo &ti : f->info) {
    f->stopAhead.push_back(!local(ti));
    f->serialAt.push_back(ti.atomic || ti.ctl == CTL_SLEEP);
  }
  f->text = std::make_shared<const std::vector<std::string>>(prog.text);
  prog.timingFacts = f;
  return f;
}

} // namespace aster::emu::timing
