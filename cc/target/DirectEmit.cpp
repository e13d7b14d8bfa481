//===- DirectEmit.cpp - amdgcn IR to an ELF object, instructions as MCInsts =//
#include "target/DirectEmit.h"
#include "target/DirectFormKey.h"
#include "target/DirectForms.h"
#include "target/DirectObject.h"
#include "target/GlobalData.h"
#include "target/KernelMetadata.h"
#include "target/raise/KernelRecord.h"
#include "target/AsmLexCheck.h"
#include "target/Assembler.h"
#include "target/InstAsm.h"
#include "target/MCTarget.h"

#include "dialect/Dialect.h"
#include "recovery/ForkSafeMutex.h"
#include "recovery/Recovery.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAssembler.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectStreamer.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCAsmParserExtension.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <mutex>

using namespace mlir;
using namespace aster::amdgcn;
using llvm::MCInst;
using llvm::MCOperand;
using llvm::SmallVectorImpl;

namespace aster::target {
using namespace direct;
namespace {

/// Per target, for the process: MC objects, register names, learned forms.
struct Encoder {
  std::unique_ptr<MCTarget> mc;
  llvm::StringMap<unsigned> regByName;
  llvm::StringMap<std::unique_ptr<Form>> forms; // guarded by encoderMutex()

  /// LLVM's register for `width` registers of `kind` from `index`, or 0.
  unsigned lookupReg(RegKind kind, int index, unsigned width) const {
    static const char *const prefix[] = {"VGPR", "SGPR", "AGPR"};
    std::string name;
    for (unsigned i = 0; i < width; ++i)
      name += (i ? "_" : "") + std::string(prefix[(int)kind]) +
              std::to_string(index + i);
    auto it = regByName.find(name);
    return it == regByName.end() ? 0 : it->second;
  }
};

/// Guards the encoders and their forms; held only for lookups and inserts
/// (and creating an encoder).
aster::ForkSafeMutex &encoderMutex() {
  static aster::ForkSafeMutex &mu = *new aster::ForkSafeMutex;
  return mu;
}

llvm::Expected<Encoder *> encoderFor(StringRef cpu) {
  static std::map<std::string, std::unique_ptr<Encoder>> encoders;
  std::lock_guard<aster::ForkSafeMutex> lock(encoderMutex());
  auto &e = encoders[cpu.str()];
  if (!e) {
    auto mc = MCTarget::create(cpu);
    if (!mc)
      return mc.takeError();
    auto enc = std::make_unique<Encoder>();
    enc->mc = std::move(*mc);
    const llvm::MCRegisterInfo &mri = *enc->mc->mri;
    for (unsigned r = 1; r < mri.getNumRegs(); ++r)
      enc->regByName[mri.getName(r)] = r;
    e = std::move(enc);
  }
  return e.get();
}

/// Registers looked up in one call (no lock, no strings after the first).
class RegCache {
public:
  explicit RegCache(const Encoder &e) : enc(e) {}
  unsigned get(const RegRef &r) {
    if (r.width > kMaxWidth || r.index < 0 || r.index >= kMaxIndex)
      return enc.lookupReg(r.kind, r.index, r.width);
    auto &v = cache[(int)r.kind][r.width];
    if (v.empty())
      v.assign(kMaxIndex, ~0u);
    unsigned &slot = v[r.index];
    if (slot == ~0u)
      slot = enc.lookupReg(r.kind, r.index, r.width);
    return slot;
  }

private:
  static constexpr unsigned kMaxWidth = 32, kMaxIndex = 512;
  const Encoder &enc;
  std::vector<unsigned> cache[3][kMaxWidth + 1];
};

/// A form met in this call; `form` is set once known or learned.
struct Entry {
  const Form *form = nullptr;
  Operation *sample = nullptr;
  const ISA::InstDesc *desc = nullptr;
};
using EntryMap = llvm::StringMap<Entry>;

/// Learns the forms of `pending` (one assembler run for all) into the
/// encoder's cache and sets their `form`.
unsigned learn(Encoder &enc, ArrayRef<llvm::StringMapEntry<Entry> *> pending) {
  std::string text;
  std::vector<std::vector<unsigned>> sampleMC; // per line: MC registers
  llvm::SmallVector<RegRef, 8> regs;
  llvm::SmallString<64> key;
  std::vector<bool> printable;
  for (auto *e : pending) {
    Operation *op = e->second.sample;
    const ISA::InstDesc *d = e->second.desc;
    formKey(op, d, key, regs);
    bool ok = true;
    for (int base : {4, 20}) {
      std::vector<RegRef> sample = sampleRegs(regs, base);
      std::vector<unsigned> mc;
      for (const RegRef &r : sample)
        mc.push_back(enc.lookupReg(r.kind, r.index, r.width));
      ok &= !llvm::is_contained(mc, 0u);
      std::string line;
      llvm::raw_string_ostream ls(line);
      auto labelOf = [&](Block *b) {
        for (unsigned i = 0; i < op->getNumSuccessors(); ++i)
          if (op->getSuccessor(i) == b)
            return sampleLabel(i);
        return std::string("?");
      };
      unsigned next = 0;
      auto regAsm = [&](Type t) {
        auto r = dyn_cast<RegType>(t);
        if (!r)
          return registerAsm(t);
        const RegRef &s = sample[next++];
        return registerAsm(s.kind, s.index, s.width);
      };
      if (!d)
        ls << "s_branch " << sampleLabel(0);
      else if (failed(printInstAsm(op, *d, ls, labelOf, regAsm)) ||
               next != sample.size())
        ok = false;
      text += line + "\n";
      sampleMC.push_back(std::move(mc));
    }
    printable.push_back(ok);
  }

  // One assembler run over all sample lines. Text MC would loop on never
  // reaches it; an LLVM fatal error while parsing leaves every form of the
  // batch unusable (their kernels go through text, which reports it).
  std::vector<Form> forms(pending.size());
  if (!findLexError(text, *enc.mc->mai)) {
    if (llvm::Error e = runRecoverable("learning instruction forms", [&] {
          forms = parseSamples(*enc.mc, text, sampleMC, printable);
        }))
      llvm::consumeError(std::move(e));
  }

  std::lock_guard<aster::ForkSafeMutex> lock(encoderMutex());
  unsigned learned = 0;
  for (unsigned p = 0; p < pending.size(); ++p) {
    auto &slot = enc.forms[pending[p]->getKey()];
    if (!slot) {
      slot = std::make_unique<Form>(std::move(forms[p]));
      ++learned;
    }
    pending[p]->second.form = slot.get();
  }
  return learned;
}

/// One emitted unit of a kernel body: an instruction (its form, op and
/// first register in the flat register list), a block label (no form, no
/// op) or `.long` words (an amdgcn.data op, no form).
struct Item {
  const Entry *entry;
  Operation *op;
  uint32_t firstReg;
  uint32_t block;
};

struct KernelPlan {
  KernelOp kernel;                   ///< null for a device function
  DeviceFunctionOp function;         ///< null for a kernel
  Region &body() { return (kernel ? kernel.getBody() : function.getBody()); }
  Operation *owner() { return kernel ? kernel.getOperation() : function.getOperation(); }
  bool direct = true;                ///< instructions as MCInsts (else text)
  unsigned ordinal = 0;              ///< among the module's kernels (or functions)
  std::array<uint8_t, 64> kd{};      ///< its descriptor
  llvm::MCSymbol *symbol = nullptr;  ///< set by `.aster_kernel`
  std::vector<Item> items;
  llvm::DenseMap<Block *, unsigned> blockIds;
};

/// Plans one kernel's body: the form of each op (new forms to `pending`),
/// its registers. False if some op cannot go directly.
/// Ops met before in this call with the same row, attributes and register
/// types (registers only: no immediates, no successors): their entry and MC
/// registers, so that an op like one before costs a hash lookup, not a form
/// key.
class OpMemo {
public:
  using Key = llvm::SmallVector<const void *, 12>;
  /// `op`'s key; false if it is not memoised.
  static bool key(Operation &op, const ISA::InstDesc *d, Key &k) {
    if (op.getNumSuccessors())
      return false;
    k.clear();
    k.push_back(d);
    k.push_back(op.getAttrDictionary().getAsOpaquePointer());
    k.push_back((const void *)(uintptr_t)op.getNumOperands());
    for (Type t : op.getResultTypes())
      k.push_back(t.getAsOpaquePointer());
    for (Value v : op.getOperands()) {
      if (!isRegisterType(v.getType()))
        return false;
      k.push_back(v.getType().getAsOpaquePointer());
    }
    return true;
  }
  const std::pair<Entry *, ArrayRef<unsigned>> *find(ArrayRef<const void *> k) const {
    auto it = map.find(k);
    return it == map.end() ? nullptr : &it->second;
  }
  void insert(ArrayRef<const void *> k, Entry *e, ArrayRef<unsigned> regs) {
    map[k.copy(arena)] = {e, regs.copy(arena)};
  }

private:
  llvm::BumpPtrAllocator arena;
  llvm::DenseMap<ArrayRef<const void *>, std::pair<Entry *, ArrayRef<unsigned>>> map;
};

bool planKernel(KernelPlan &kp, EntryMap &entries,
                std::vector<llvm::StringMapEntry<Entry> *> &pending,
                std::vector<unsigned> &flatRegs, RegCache &rc, OpMemo &memo,
                ArrayRef<std::string> textMnemonics) {
  const ISA::InstDesc *branch = ISA::lookup("s_branch");
  for (Block &b : kp.body())
    kp.blockIds[&b] = kp.blockIds.size();
  llvm::SmallString<64> key;
  llvm::SmallVector<RegRef, 8> regs;
  OpMemo::Key memoKey;
  for (Block &b : kp.body()) {
    if (&b != &kp.body().front())
      kp.items.push_back({nullptr, nullptr, 0, kp.blockIds[&b]});
    for (Operation &op : b) {
      const ISA::InstDesc *d = getInstDesc(&op);
      if (!d) {
        if (isa<RegOp, UndefOp, SchedBarrierOp, arith::ConstantOp, RelocOp>(op))
          continue;
        if (auto data = dyn_cast<DataOp>(op)) {
          // Words are written as they are; a verbatim line needs text.
          if (!data.getWords())
            return false;
          kp.items.push_back({nullptr, &op, 0, 0});
          continue;
        }
        auto br = dyn_cast<cf::BranchOp>(op);
        if (!br || !branch || failed(checkSuccessorOperands(&op)))
          return false;
        if (br.getDest() == b.getNextNode())
          continue;
      } else if (llvm::is_contained(textMnemonics, d->mnemonic)) {
        return false;
      } else if (op.getNumSuccessors() &&
                 (failed(checkSuccessorOperands(&op)) ||
                  (d->successors == 2 && op.getSuccessor(1) != b.getNextNode()))) {
        return false;
      }
      bool memoised = d && OpMemo::key(op, d, memoKey);
      if (memoised) {
        if (auto *known = memo.find(memoKey)) {
          kp.items.push_back({known->first, &op, (uint32_t)flatRegs.size(), 0});
          flatRegs.insert(flatRegs.end(), known->second.begin(), known->second.end());
          continue;
        }
      }
      if (!formKey(&op, d, key, regs))
        return false;
      auto [it, isNew] = entries.try_emplace(key);
      if (isNew) {
        it->second.sample = &op;
        it->second.desc = d;
        pending.push_back(&*it);
      }
      size_t first = flatRegs.size();
      kp.items.push_back({&it->second, &op, (uint32_t)first, 0});
      for (const RegRef &r : regs) {
        unsigned mc = rc.get(r);
        if (!mc)
          return false;
        flatRegs.push_back(mc);
      }
      if (memoised)
        memo.insert(memoKey, &it->second, ArrayRef(flatRegs).drop_front(first));
    }
  }
  return true;
}

/// The directives of the skeleton text emitObject writes (the rest of the
/// object needs no text):
///   `.aster_kernel N`      kernel N's symbol and, if direct, instructions
///   `.aster_kernel_end N`  its size and descriptor
///   `.aster_function N`    device function N (also a plan): its alignment,
///                          symbol and, if direct, instructions
///   `.aster_function_end N` its size
///   `.aster_global N`      global N (GlobalData.h)
///   `.aster_metadata`      the metadata note
class ObjectDirectives : public llvm::MCAsmParserExtension {
public:
  ObjectDirectives(std::vector<KernelPlan> &plans, const std::vector<unsigned> &regs,
                   ArrayRef<GlobalOp> globals, llvm::msgpack::Document &metadata,
                   unsigned &count)
      : plans(plans), regs(regs), globals(globals), metadata(metadata), count(count) {}

  /// The whole object with no skeleton text: every kernel and device
  /// function (all direct), the globals and the metadata note. False if a
  /// part is rejected.
  bool emitAll(llvm::MCStreamer &out, const llvm::MCSubtargetInfo &sti) {
    for (KernelPlan &kp : plans) {
      begin(out, sti, kp);
      emitBody(out, sti, kp);
      if (!end(out, kp))
        return false;
    }
    for (GlobalOp g : globals)
      emitGlobal(g, out);
    return emitMetadataNote(out, metadata);
  }

  void Initialize(llvm::MCAsmParser &p) override {
    MCAsmParserExtension::Initialize(p);
    for (const char *name : {".aster_kernel", ".aster_kernel_end", ".aster_function",
                             ".aster_function_end", ".aster_global", ".aster_metadata"})
      p.addDirectiveHandler(name, {this, &ObjectDirectives::handle});
  }

private:
  static bool handle(MCAsmParserExtension *self, StringRef name, llvm::SMLoc) {
    return static_cast<ObjectDirectives *>(self)->run(name);
  }

  bool run(StringRef name) {
    llvm::MCStreamer &out = getStreamer();
    if (name == ".aster_metadata")
      return getParser().parseEOL() || !emitMetadataNote(out, metadata);
    int64_t idx;
    if (getParser().parseAbsoluteExpression(idx) || getParser().parseEOL() || idx < 0)
      return true;
    const llvm::MCSubtargetInfo &sti = getParser().getTargetParser().getSTI();
    if (name == ".aster_global") {
      if (idx >= (int64_t)globals.size())
        return true;
      emitGlobal(globals[idx], out);
      return false;
    }
    if (idx >= (int64_t)plans.size())
      return true;
    KernelPlan &kp = plans[idx];
    if (name == ".aster_kernel_end")
      return !kp.symbol || !end(out, kp);
    if (name == ".aster_function_end")
      return !kp.symbol || !end(out, kp);
    begin(out, sti, kp);
    if (kp.direct)
      emitBody(out, sti, kp);
    return false;
  }

  /// A kernel's or device function's start: alignment, symbol.
  void begin(llvm::MCStreamer &out, const llvm::MCSubtargetInfo &sti, KernelPlan &kp) {
    kp.symbol = kp.kernel ? beginKernel(out, sti, kp.kernel.getSymName())
                          : beginDeviceFunction(out, sti, kp.function.getSymName(),
                                                kp.function.getP2align().value_or(2));
  }

  /// Its end: size (and a kernel's descriptor).
  bool end(llvm::MCStreamer &out, KernelPlan &kp) {
    if (!kp.kernel) {
      endDeviceFunction(out, kp.symbol, kp.ordinal);
      return true;
    }
    return endKernel(out, kp.symbol, kp.ordinal, kp.kd);
  }

  void emitBody(llvm::MCStreamer &out, const llvm::MCSubtargetInfo &sti, KernelPlan &kp) {
    llvm::MCContext &ctx = out.getContext();
    std::vector<llvm::MCSymbol *> labels(kp.blockIds.size());
    std::string prefix = (kp.kernel ? ".LBB" : ".LDF") + std::to_string(kp.ordinal) + "_";
    for (unsigned b = 0; b < labels.size(); ++b)
      labels[b] = ctx.getOrCreateSymbol(prefix + std::to_string(b));
    auto &obj = static_cast<llvm::MCObjectStreamer &>(out);
    llvm::MCCodeEmitter &emitter = obj.getAssembler().getEmitter();
    llvm::MCAsmBackend &backend = obj.getAssembler().getBackend();
    MCInst mi;
    llvm::SmallVector<char, 16> code;
    llvm::SmallVector<llvm::MCFixup, 1> fixups;
    bool first = true;
    for (const Item &it : kp.items) {
      if (!it.entry && !it.op) {
        out.emitLabel(labels[it.block]);
        continue;
      }
      if (!it.entry) { // .long words, as the text path writes them
        ArrayRef<int32_t> words = *cast<DataOp>(it.op).getWords();
        for (int32_t w : words)
          out.emitIntValue((uint32_t)w, 4);
        continue;
      }
      const Form &f = *it.entry->form;
      // An instruction met before (same form, same registers) is its bytes.
      std::optional<EncodingKey> ek;
      if (!first && !f.hasLabel && f.numSlots <= 4) {
        ek = EncodingKey{&f, 0};
        for (unsigned i = 0; i < f.numSlots; ++i) {
          unsigned r = regs[it.firstReg + i];
          ek->regs |= (uint64_t)r << (16 * i);
          if (r > 0xffff)
            ek.reset();
          if (!ek)
            break;
        }
        auto c = ek ? encodings.find(*ek) : encodings.end();
        if (c != encodings.end()) {
          out.emitBytes(StringRef(pool.data() + c->second.first, c->second.second));
          ++count;
          continue;
        }
      }
      first = false;
      mi.clear();
      mi.setOpcode(f.opcode);
      mi.setFlags(f.flags);
      for (const TOp &t : f.ops) {
        switch (t.kind) {
        case TOp::Reg: mi.addOperand(MCOperand::createReg(t.value)); break;
        case TOp::Imm: mi.addOperand(MCOperand::createImm(t.value)); break;
        case TOp::SFPImm: mi.addOperand(MCOperand::createSFPImm(t.value)); break;
        case TOp::DFPImm: mi.addOperand(MCOperand::createDFPImm(t.value)); break;
        case TOp::Slot:
          mi.addOperand(MCOperand::createReg(regs[it.firstReg + t.index]));
          break;
        case TOp::Label: {
          Block *dest = it.op->getSuccessor(t.index);
          mi.addOperand(MCOperand::createExpr(
              llvm::MCSymbolRefExpr::create(labels[kp.blockIds.lookup(dest)], ctx)));
          break;
        }
        case TOp::Sym:
          mi.addOperand(MCOperand::createExpr(symbolExpr(t, relocOperand(it.op, t.index), ctx)));
          break;
        }
      }
      out.emitInstruction(mi, sti);
      ++count;
      if (ek && !backend.mayNeedRelaxation(mi.getOpcode(), mi.getOperands(), sti)) {
        code.clear();
        fixups.clear();
        emitter.encodeInstruction(mi, code, fixups, sti);
        if (fixups.empty()) {
          encodings[*ek] = {(uint32_t)pool.size(), (uint32_t)code.size()};
          pool.append(code.begin(), code.end());
        }
      }
    }
  }

  /// An instruction's form and (up to 4) registers, 16 bits each.
  struct EncodingKey {
    const Form *form;
    uint64_t regs;
    bool operator==(const EncodingKey &o) const {
      return form == o.form && regs == o.regs;
    }
  };
  struct EncodingKeyInfo {
    static EncodingKey getEmptyKey() { return {nullptr, ~0ull}; }
    static EncodingKey getTombstoneKey() { return {nullptr, ~1ull}; }
    static unsigned getHashValue(const EncodingKey &k) {
      return llvm::hash_combine(k.form, k.regs);
    }
    static bool isEqual(const EncodingKey &a, const EncodingKey &b) { return a == b; }
  };
  /// Bytes of the instructions encoded so far (offset, size in `pool`).
  llvm::DenseMap<EncodingKey, std::pair<uint32_t, uint32_t>, EncodingKeyInfo> encodings;
  llvm::SmallVector<char, 0> pool;

  std::vector<KernelPlan> &plans;
  const std::vector<unsigned> &regs;
  ArrayRef<GlobalOp> globals;
  llvm::msgpack::Document &metadata;
  unsigned &count;
};

/// True if the text path's YAML carries every string of `n` unchanged
/// (UTF-8 without control characters; raised metadata may hold any bytes).
bool yamlSafe(llvm::msgpack::DocNode &n) {
  auto ok = [](StringRef s) {
    return llvm::all_of(s, [](char c) { return (unsigned char)c >= 0x20 && c != 0x7f; }) &&
           llvm::json::isUTF8(s);
  };
  if (n.isString())
    return ok(n.getString());
  if (n.isArray())
    return llvm::all_of(n.getArray(), [](llvm::msgpack::DocNode &e) { return yamlSafe(e); });
  if (n.isMap())
    for (auto &[k, v] : n.getMap())
      if ((k.isString() && !ok(k.getString())) || !yamlSafe(v))
        return false;
  return true;
}

} // namespace

llvm::Expected<std::vector<char>> emitObject(KernelModuleOp module,
                                             DirectStats *stats,
                                             ArrayRef<std::string> textMnemonics) {
  DirectStats local;
  DirectStats &st = stats ? *stats : local;
  // Diagnostics are the text path's to report (the caller's fallback).
  ScopedDiagnosticHandler quiet(module.getContext(),
                                [](Diagnostic &) { return success(); });
  auto encOr = encoderFor(module.getTarget());
  if (!encOr)
    return encOr.takeError();
  Encoder &enc = **encOr;
  RegCache rc(enc);
  OpMemo memo;

  // Plan every kernel; look up (or learn) the forms met.
  std::vector<KernelPlan> plans;
  std::vector<unsigned> flatRegs;
  EntryMap entries;
  std::vector<llvm::StringMapEntry<Entry> *> pending;
  unsigned numKernels = 0, numFunctions = 0;
  for (Operation &op : module.getBody().front()) {
    auto k = dyn_cast<KernelOp>(op);
    auto f = dyn_cast<DeviceFunctionOp>(op);
    if (!k && !f)
      continue;
    plans.emplace_back();
    plans.back().kernel = k;
    plans.back().function = f;
    plans.back().ordinal = k ? numKernels++ : numFunctions++;
    plans.back().direct =
        planKernel(plans.back(), entries, pending, flatRegs, rc, memo, textMnemonics);
  }
  {
    std::lock_guard<aster::ForkSafeMutex> lock(encoderMutex());
    llvm::erase_if(pending, [&](llvm::StringMapEntry<Entry> *e) {
      auto it = enc.forms.find(e->getKey());
      if (it == enc.forms.end())
        return false;
      e->second.form = it->second.get();
      return true;
    });
  }
  if (!pending.empty())
    st.formsLearned += learn(enc, pending);
  for (KernelPlan &kp : plans) {
    for (const Item &it : kp.items)
      kp.direct &= !it.entry || (it.entry->form && it.entry->form->ok);
    if (!kp.kernel) {
      if (!kp.direct)
        st.textKernels.push_back(kp.function.getSymName().str());
      continue;
    }
    ++st.kernels;
    if (!kp.direct)
      st.textKernels.push_back(kp.kernel.getSymName().str());
  }

  // Text is needed only for a kernel body that goes through text or the
  // assembler lines a raised module keeps; then the object is a skeleton
  // text (module header, one directive per kernel part, those lines) that
  // LLVM's assembler runs. Otherwise there is no text and no assembler.
  auto codeTail = [](KernelPlan &kp) {
    return kp.owner()->getAttrOfType<StringAttr>(raise::kCodeTailAttr);
  };
  auto textTail = module->getAttrOfType<StringAttr>(raise::kTextTailAttr);
  auto cov = module->getAttrOfType<IntegerAttr>(raise::kCodeObjectVersionAttr);
  auto header = elfHeader(module.getTarget(), cov ? cov.getInt() : 5);
  bool needsText = !header || textTail ||
                   llvm::any_of(plans, [&](KernelPlan &kp) { return !kp.direct || codeTail(kp); });
  uint8_t target = module.getTargetBit();
  std::string text;
  llvm::raw_string_ostream os(text);
  if (needsText)
    writeModuleHeader(module, os);
  std::vector<KernelInfo> infos;
  for (unsigned i = 0; i < plans.size(); ++i) {
    KernelPlan &kp = plans[i];
    if (kp.function) {
      if (!enc.mc->mai->isValidUnquotedName(kp.function.getSymName()))
        return llvm::createStringError("device function name '" +
                                       kp.function.getSymName().str() +
                                       "' is not an assembler symbol");
      if (!needsText)
        continue;
      os << "\t.aster_function " << i << "\n";
      if (!kp.direct && failed(writeBody(kp.function.getBody(),
                                         ".LDF" + std::to_string(kp.ordinal) + "_", os)))
        return llvm::createStringError("device function " + kp.function.getSymName().str() +
                                       " cannot be translated");
      if (auto tail = codeTail(kp))
        os << tail.getValue();
      os << "\t.aster_function_end " << i << "\n";
      continue;
    }
    // The text path (which must give the same object) names the kernel's
    // symbols unquoted.
    if (!enc.mc->mai->isValidUnquotedName(kp.kernel.getSymName()))
      return llvm::createStringError("kernel name '" + kp.kernel.getSymName().str() +
                                     "' is not an assembler symbol");
    infos.push_back(analyzeKernel(kp.kernel, target));
    auto desc = kp.kernel->getAttrOfType<DictionaryAttr>(raise::kDescriptorAttr);
    auto kd = raise::encodeKernelDescriptor(
        desc ? raise::descriptorDirectiveValues(desc) : descriptorDirectives(infos.back(), target),
        target, *enc.mc->sti);
    if (!kd)
      return kd.takeError();
    kp.kd = *kd;
    if (!needsText)
      continue;
    os << "\t.aster_kernel " << i << "\n";
    if (!kp.direct && failed(writeKernelBody(kp.kernel, kp.ordinal, os)))
      return llvm::createStringError("kernel " + kp.kernel.getSymName().str() +
                                     " cannot be translated");
    if (auto tail = codeTail(kp))
      os << tail.getValue();
    os << "\t.aster_kernel_end " << i << "\n";
  }
  if (textTail)
    os << textTail.getValue();
  std::vector<GlobalOp> globals;
  for (auto g : module.getBody().front().getOps<GlobalOp>()) {
    if (!g.getSymName().starts_with(".L") &&
        !enc.mc->mai->isValidUnquotedName(g.getSymName()))
      return llvm::createStringError("global name '" + g.getSymName().str() +
                                     "' is not an assembler symbol");
    if (needsText)
      os << "\t.aster_global " << globals.size() << "\n";
    globals.push_back(g);
  }
  if (needsText)
    os << "\t.aster_metadata\n";
  llvm::msgpack::Document metadata;
  buildMetadata(module, infos, metadata);
  if (!yamlSafe(metadata.getRoot()))
    return llvm::createStringError("the metadata has a string its YAML text cannot carry");
  ObjectDirectives directives(plans, flatRegs, globals, metadata, st.instructions);
  st.assembler = needsText;
  if (!needsText)
    return streamObject(module.getTarget(), header->first, header->second,
                        [&](llvm::MCStreamer &out, const llvm::MCSubtargetInfo &sti) {
                          return directives.emitAll(out, sti);
                        });
  return assembleObject(text, module.getTarget(), nullptr,
                        [&](llvm::MCAsmParser &p) { directives.Initialize(p); });
}

} // namespace aster::target
