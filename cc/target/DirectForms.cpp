//===- DirectForms.cpp - instruction forms learned from LLVM's matcher ---===//
#include "target/DirectForms.h"

#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using llvm::ArrayRef;
using llvm::MCInst;
using llvm::MCOperand;
using llvm::StringRef;

namespace aster::target::direct {
std::vector<RegRef> sampleRegs(ArrayRef<RegRef> regs, int base) {
  std::vector<RegRef> out;
  int next[3] = {base, base, base};
  for (unsigned j = 0; j < regs.size(); ++j) {
    unsigned k = 0;
    while (k < j && !(regs[k] == regs[j]))
      ++k;
    if (k < j) {
      out.push_back(out[k]);
      continue;
    }
    int &n = next[(int)regs[j].kind];
    n = (n + 3) & ~3;
    out.push_back({regs[j].kind, n, regs[j].width});
    n += regs[j].width;
  }
  return out;
}

std::string sampleLabel(unsigned i) { return "aster_sample_l" + std::to_string(i); }

namespace {

/// Collects the MCInsts the assembler makes of the sample lines.
class Capture : public llvm::MCStreamer {
public:
  explicit Capture(llvm::MCContext &c) : MCStreamer(c) {}
  std::vector<MCInst> insts;
  void emitInstruction(const MCInst &i, const llvm::MCSubtargetInfo &) override {
    insts.push_back(i);
  }
  bool emitSymbolAttribute(llvm::MCSymbol *, llvm::MCSymbolAttr) override {
    return true;
  }
  void emitCommonSymbol(llvm::MCSymbol *, uint64_t, llvm::Align) override {}
};

/// The label index an operand refers to, or -1.
int labelIndex(const MCOperand &o) {
  if (!o.isExpr())
    return -1;
  auto *s = llvm::dyn_cast<llvm::MCSymbolRefExpr>(o.getExpr());
  if (!s || s->getSpecifier())
    return -1;
  StringRef name = s->getSymbol().getName();
  unsigned i;
  if (!name.consume_front("aster_sample_l") || name.getAsInteger(10, i))
    return -1;
  return i;
}

/// A `sym@kind[+-c]` operand: its shape; false for anything else.
bool symbolShape(const MCOperand &o, TOp &t, StringRef &symbol) {
  if (!o.isExpr())
    return false;
  const llvm::MCExpr *e = o.getExpr();
  t.shape = TOp::SymOnly;
  t.addend = 0;
  if (auto *b = llvm::dyn_cast<llvm::MCBinaryExpr>(e)) {
    auto *c = llvm::dyn_cast<llvm::MCConstantExpr>(b->getRHS());
    if (!c || (b->getOpcode() != llvm::MCBinaryExpr::Add &&
               b->getOpcode() != llvm::MCBinaryExpr::Sub))
      return false;
    t.shape = b->getOpcode() == llvm::MCBinaryExpr::Add ? TOp::SymPlus : TOp::SymMinus;
    t.addend = c->getValue();
    e = b->getLHS();
  }
  auto *s = llvm::dyn_cast<llvm::MCSymbolRefExpr>(e);
  if (!s || !s->getSpecifier())
    return false;
  t.kind = TOp::Sym;
  t.value = s->getSpecifier();
  symbol = s->getSymbol().getName();
  return true;
}

/// The form learned from sample `a` (registers `ra`), checked against sample
/// `b` (registers `rb`).
Form formFrom(const MCInst &a, ArrayRef<unsigned> ra, const MCInst &b,
              ArrayRef<unsigned> rb) {
  Form f;
  f.opcode = a.getOpcode();
  f.flags = a.getFlags();
  llvm::SmallVector<bool, 8> used(ra.size(), false);
  for (const MCOperand &o : a) {
    TOp t;
    if (o.isReg()) {
      unsigned r = o.getReg().id();
      auto it = llvm::find(ra, r);
      if (it != ra.end()) {
        t.kind = TOp::Slot;
        t.index = it - ra.begin();
        used[t.index] = true;
      } else {
        t.kind = TOp::Reg;
        t.value = r;
      }
    } else if (o.isImm()) {
      t.kind = TOp::Imm;
      t.value = o.getImm();
    } else if (o.isSFPImm()) {
      t.kind = TOp::SFPImm;
      t.value = o.getSFPImm();
    } else if (o.isDFPImm()) {
      t.kind = TOp::DFPImm;
      t.value = (int64_t)o.getDFPImm();
    } else if (int l = labelIndex(o); l >= 0) {
      t.kind = TOp::Label;
      t.index = l;
    } else if (StringRef sym; symbolShape(o, t, sym)) {
      t.index = llvm::count_if(f.ops, [](const TOp &x) { return x.kind == TOp::Sym; });
    } else {
      return Form();
    }
    f.ops.push_back(t);
  }
  // Every register must have its place (equal registers share one).
  for (unsigned j = 0; j < ra.size(); ++j)
    if (!used[j] && llvm::find(ra, ra[j]) - ra.begin() == j)
      return Form();
  // Sample b is sample a with b's registers.
  if (b.getOpcode() != f.opcode || b.getFlags() != f.flags ||
      b.getNumOperands() != f.ops.size())
    return Form();
  for (unsigned i = 0; i < f.ops.size(); ++i) {
    const TOp &t = f.ops[i];
    const MCOperand &o = b.getOperand(i);
    bool same = false;
    switch (t.kind) {
    case TOp::Reg: same = o.isReg() && o.getReg().id() == (unsigned)t.value; break;
    case TOp::Slot: same = o.isReg() && o.getReg().id() == rb[t.index]; break;
    case TOp::Imm: same = o.isImm() && o.getImm() == t.value; break;
    case TOp::SFPImm: same = o.isSFPImm() && o.getSFPImm() == (uint32_t)t.value; break;
    case TOp::DFPImm: same = o.isDFPImm() && o.getDFPImm() == (uint64_t)t.value; break;
    case TOp::Label: same = labelIndex(o) == (int)t.index; break;
    case TOp::Sym: {
      TOp u;
      StringRef sym;
      same = symbolShape(o, u, sym) && u.value == t.value && u.shape == t.shape &&
             u.addend == t.addend;
      break;
    }
    }
    if (!same)
      return Form();
  }
  f.ok = true;
  f.numSlots = ra.size();
  f.hasLabel = llvm::any_of(f.ops, [](const TOp &t) {
    return t.kind == TOp::Label || t.kind == TOp::Sym;
  });
  return f;
}

} // namespace

const llvm::MCExpr *symbolExpr(const TOp &t, StringRef symbol, llvm::MCContext &ctx) {
  const llvm::MCExpr *e =
      llvm::MCSymbolRefExpr::create(ctx.getOrCreateSymbol(symbol), (uint16_t)t.value, ctx);
  if (t.shape == TOp::SymOnly)
    return e;
  const llvm::MCExpr *c = llvm::MCConstantExpr::create(t.addend, ctx);
  return t.shape == TOp::SymPlus ? llvm::MCBinaryExpr::createAdd(e, c, ctx)
                                 : llvm::MCBinaryExpr::createSub(e, c, ctx);
}

std::vector<Form> parseSamples(const MCTarget &t, const std::string &text,
                               ArrayRef<std::vector<unsigned>> sampleMC,
                               const std::vector<bool> &printable) {
  llvm::SourceMgr srcMgr;
  srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "<forms>"),
                            llvm::SMLoc());
  std::vector<bool> lineFailed(sampleMC.size(), false);
  auto onDiag = [&](const llvm::SMDiagnostic &d) {
    if (d.getKind() == llvm::SourceMgr::DK_Error && d.getLineNo() >= 1 &&
        (size_t)d.getLineNo() <= sampleMC.size())
      lineFailed[d.getLineNo() - 1] = true;
  };
  srcMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *c) {
        (*static_cast<decltype(onDiag) *>(c))(d);
      },
      &onDiag);
  llvm::MCContext mctx(t.triple, t.mai.get(), t.mri.get(), t.sti.get(), &srcMgr,
                       &t.options);
  mctx.setDiagnosticHandler([&](const llvm::SMDiagnostic &d, bool,
                                const llvm::SourceMgr &,
                                std::vector<const llvm::MDNode *> &) { onDiag(d); });
  std::unique_ptr<llvm::MCObjectFileInfo> mofi(
      t.target->createMCObjectFileInfo(mctx, /*PIC=*/true));
  mctx.setObjectFileInfo(mofi.get());
  Capture cap(mctx);
  t.target->createNullTargetStreamer(cap);
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(srcMgr, mctx, cap, *t.mai));
  std::unique_ptr<llvm::MCTargetAsmParser> tap(
      t.target->createMCAsmParser(*t.sti, *parser, *t.mii, t.options));
  std::vector<Form> forms(printable.size());
  if (!tap || !cap.getTargetStreamer())
    return forms;
  parser->setTargetParser(*tap);
  parser->Run(/*NoInitialTextSection=*/false, /*NoFinalize=*/true);
  std::vector<const MCInst *> byLine(sampleMC.size(), nullptr);
  for (const MCInst &i : cap.insts) {
    unsigned line = srcMgr.FindLineNumber(i.getLoc());
    if (line >= 1 && line <= byLine.size())
      byLine[line - 1] = &i;
  }
  for (unsigned p = 0; p < printable.size(); ++p) {
    unsigned la = 2 * p, lb = 2 * p + 1;
    if (printable[p] && byLine[la] && byLine[lb] && !lineFailed[la] &&
        !lineFailed[lb])
      forms[p] = formFrom(*byLine[la], sampleMC[la], *byLine[lb], sampleMC[lb]);
  }
  return forms;
}

} // namespace aster::target::direct
