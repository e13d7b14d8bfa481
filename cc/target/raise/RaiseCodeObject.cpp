//===- RaiseCodeObject.cpp - a linked code object into amdgcn IR ---------===//
//
// ELF, symbols and notes through LLVM's Object library; each kernel's code
// (its FUNC symbol's bytes) through LLVM's AMDGPU disassembler and printer,
// FUNC symbols without a descriptor as device functions,
// then the same instruction reader as assembly text; the descriptor (the
// `NAME.kd` symbol) per AMDHSAKernelDescriptor.h; the metadata note through
// LLVM's msgpack document.
//
//===----------------------------------------------------------------------===//
#include "target/Assembler.h"
#include "target/Disassembler.h"
#include "target/MCTarget.h"
#include "recovery/ForkSafeMutex.h"
#include "recovery/Recovery.h"
#include "target/raise/CodeObjectData.h"
#include "target/raise/KernelBody.h"
#include "target/raise/KernelRecord.h"
#include "target/raise/Raise.h"
#include "target/raise/RaiseCommon.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <mutex>
#include <set>

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;
using llvm::StringRef;

namespace aster::raise {

namespace {
struct Symbol {
  std::string name;
  uint64_t addr, size;
};

std::string hexPc(uint64_t pc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "pc " << llvm::format_hex(pc, 2);
  return s;
}

/// Words of `.fill`-compressed code bytes (runs of one word).
std::string fillLines(ArrayRef<uint8_t> bytes) {
  std::string out;
  llvm::raw_string_ostream os(out);
  size_t n = bytes.size() / 4;
  for (size_t i = 0; i < n;) {
    uint32_t w = llvm::support::endian::read32le(bytes.data() + 4 * i);
    size_t j = i + 1;
    while (j < n && llvm::support::endian::read32le(bytes.data() + 4 * j) == w)
      ++j;
    os << "\t.fill " << (j - i) << ", 4, " << llvm::format_hex(w, 10) << "\n";
    i = j;
  }
  for (size_t i = n * 4; i < bytes.size(); ++i)
    os << "\t.byte " << (unsigned)bytes[i] << "\n";
  return out;
}
} // namespace

namespace {
struct Decoded {
  uint64_t pc;
  unsigned size;
  bool ok;
  std::string text;
  int64_t target = -1;
};

/// The SGPR of `tok` ("s4"), or -1.
int sgprOf(StringRef tok) {
  unsigned n;
  if (!tok.consume_front("s") || tok.getAsInteger(10, n))
    return -1;
  return n;
}

/// An address computed from the PC, `s_getpc_b64 s[a:a+1]` then
/// `s_add_u32 sa, sa, LO` and `s_addc_u32 sa+1, sa+1, HI` (32-bit literals;
/// how LLVM takes a symbol's address): the literals become the symbolic
/// operands they were assembled from, `sym@rel32@lo+N` / `@hi+N+8` (or
/// `@gotpcrel32` for a GOT slot), so the code stays right wherever the
/// symbol lands.
void nameAddresses(std::vector<Decoded> &insts, ArrayRef<uint8_t> code, uint64_t textAddr,
                   const CodeObjectData &data, std::vector<std::string> &errors,
                   StringRef fname) {
  auto operands = [](StringRef text, SmallVectorImpl<StringRef> &ops) {
    auto [mn, rest] = text.split(' ');
    rest.split(ops, ',');
    for (StringRef &o : ops)
      o = o.trim();
    return mn;
  };
  for (size_t i = 0; i + 2 < insts.size(); ++i) {
    Decoded &get = insts[i], &add = insts[i + 1], &addc = insts[i + 2];
    if (!get.ok || !add.ok || !addc.ok || add.size != 8 || addc.size != 8)
      continue;
    SmallVector<StringRef, 3> g, a, c;
    if (operands(get.text, g) != "s_getpc_b64" || operands(add.text, a) != "s_add_u32" ||
        operands(addc.text, c) != "s_addc_u32" || g.size() != 1 || a.size() != 3 ||
        c.size() != 3)
      continue;
    StringRef pair = g[0];
    unsigned lo;
    if (!pair.consume_front("s[") || pair.split(':').first.getAsInteger(10, lo))
      continue;
    if (sgprOf(a[0]) != (int)lo || sgprOf(a[1]) != (int)lo || sgprOf(c[0]) != (int)lo + 1 ||
        sgprOf(c[1]) != (int)lo + 1)
      continue;
    uint32_t litLo = llvm::support::endian::read32le(code.data() + add.pc - textAddr + 4);
    uint32_t litHi = llvm::support::endian::read32le(code.data() + addc.pc - textAddr + 4);
    uint64_t target = get.pc + 4 + (((uint64_t)litHi << 32) | litLo);
    std::string sym;
    int64_t off;
    bool got;
    if (!data.name(target, sym, off, got)) {
      errors.push_back(fname.str() + " " + hexPc(get.pc) + ": the address computed from the "
                       "PC (" + hexPc(target).substr(3) + ") is in no function or data");
      continue;
    }
    std::string kind = got ? "gotpcrel32" : "rel32";
    auto operand = [&](StringRef half, int64_t addend) {
      std::string s = sym + "@" + kind + "@" + half.str();
      if (addend > 0)
        s += "+" + std::to_string(addend);
      else if (addend < 0)
        s += std::to_string(addend);
      return s;
    };
    add.text = ("s_add_u32 " + a[0] + ", " + a[1] + ", ").str() + operand("lo", off + 4);
    addc.text = ("s_addc_u32 " + c[0] + ", " + c[1] + ", ").str() + operand("hi", off + 12);
    i += 2;
  }
}
} // namespace

namespace {
/// Which decoded instructions LLVM's own text does not hold: an
/// instruction's text as LLVM prints it, assembled again by LLVM MC, differs
/// from its words (each distinct text and words assembled once per process) (bits the disassembler ignores and so does not print: AMD's
/// v_mfma_scale_* set op_sel/op_sel_hi of the scale prefix's absent third
/// source). Such an instruction is kept as its words. Instructions of
/// another size or an assembler error leave all unmarked (the round trip
/// then shows the difference).
/// Verdicts already reached, process-wide: key = cpu, text and the words
/// (most code repeats its instructions; assembling text is the expensive
/// part of raising). Bounded: cleared when it grows past kMaxMemo entries.
constexpr size_t kMaxMemo = 1 << 20;
ForkSafeMutex &lossyMutex() {
  static ForkSafeMutex &mu = *new ForkSafeMutex;
  return mu;
}
llvm::StringMap<bool> &lossyMemo() {
  static auto &memo = *new llvm::StringMap<bool>;
  return memo;
}

std::vector<bool> lossyTexts(ArrayRef<Decoded> insts, ArrayRef<uint8_t> code, uint64_t textAddr,
                             StringRef cpu) {
  std::vector<bool> lossy(insts.size(), false);
  std::vector<std::string> keys(insts.size());
  std::vector<size_t> todo; // the first instruction of each key not yet known
  llvm::StringMap<size_t> firstOf;
  {
    std::lock_guard<ForkSafeMutex> lock(lossyMutex());
    for (size_t i = 0; i < insts.size(); ++i) {
      const Decoded &d = insts[i];
      if (!d.ok)
        continue;
      keys[i] = (cpu + "\n" + d.text + "\n").str();
      keys[i].append((const char *)code.data() + (d.pc - textAddr), d.size);
      auto it = lossyMemo().find(keys[i]);
      if (it != lossyMemo().end())
        lossy[i] = it->second;
      else if (firstOf.try_emplace(keys[i], i).second)
        todo.push_back(i);
    }
  }
  if (todo.empty())
    return lossy;
  // The unknown instructions, once each, assembled by LLVM MC.
  std::string text = "\t.text\n";
  llvm::raw_string_ostream os(text);
  uint64_t size = 0;
  for (size_t i : todo) {
    os << "\t" << insts[i].text << "\n";
    size += insts[i].size;
  }
  auto obj = target::assembleObject(text, cpu);
  if (!obj) {
    llvm::consumeError(obj.takeError());
    return lossy;
  }
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(StringRef(obj->data(), obj->size()), "listing"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return lossy;
  }
  for (const llvm::object::SectionRef &sec : (*file)->sections()) {
    auto name = sec.getName();
    if (!name || *name != ".text") {
      if (!name)
        llvm::consumeError(name.takeError());
      continue;
    }
    auto bytes = sec.getContents();
    if (!bytes) {
      llvm::consumeError(bytes.takeError());
      return lossy;
    }
    if (bytes->size() != size)
      return lossy;
    std::lock_guard<ForkSafeMutex> lock(lossyMutex());
    if (lossyMemo().size() > kMaxMemo)
      lossyMemo().clear();
    uint64_t at = 0;
    for (size_t i : todo) {
      const Decoded &d = insts[i];
      lossyMemo()[keys[i]] =
          memcmp(bytes->data() + at, code.data() + (d.pc - textAddr), d.size) != 0;
      at += d.size;
    }
    for (size_t i = 0; i < insts.size(); ++i)
      if (insts[i].ok) {
        auto it = lossyMemo().find(keys[i]);
        if (it != lossyMemo().end())
          lossy[i] = it->second;
      }
  }
  return lossy;
}
} // namespace

/// [A-Za-z_.$][A-Za-z0-9_.$]*
static bool isAsmSymbol(StringRef s) {
  auto ok = [](char c, bool first) {
    return llvm::isAlpha(c) || c == '_' || c == '.' || c == '$' || (!first && llvm::isDigit(c));
  };
  if (s.empty() || !ok(s[0], true))
    return false;
  return llvm::all_of(s.drop_front(), [&](char c) { return ok(c, false); });
}

/// Checks a msgpack blob with LLVM's low-level reader before it is given to
/// msgpack::Document (whose reader crashes on some malformed input, as
/// llvm-readelf does): one complete object, nesting under 64, map keys
/// strings or integers, nothing after it.
static bool wellFormedMsgpack(StringRef blob) {
  llvm::msgpack::Reader r(blob);
  // Objects still to read at each open level.
  llvm::SmallVector<uint64_t, 16> pending{1};
  llvm::SmallVector<bool, 16> inMap{false};
  uint64_t index = 0;  // position in the current map (even: a key)
  llvm::SmallVector<uint64_t, 16> indices{0};
  while (!pending.empty()) {
    if (pending.back() == 0) {
      pending.pop_back();
      inMap.pop_back();
      indices.pop_back();
      continue;
    }
    llvm::msgpack::Object o;
    auto got = r.read(o);
    if (!got) {
      llvm::consumeError(got.takeError());
      return false;
    }
    if (!*got)
      return false;
    --pending.back();
    index = indices.back()++;
    using llvm::msgpack::Type;
    if (inMap.back() && index % 2 == 0 && o.Kind != Type::String && o.Kind != Type::Int &&
        o.Kind != Type::UInt)
      return false;
    if (o.Kind == Type::Array || o.Kind == Type::Map) {
      if (pending.size() >= 64 || o.Length > blob.size())
        return false;
      pending.push_back(o.Kind == Type::Map ? 2 * (uint64_t)o.Length : o.Length);
      inMap.push_back(o.Kind == Type::Map);
      indices.push_back(0);
    }
  }
  llvm::msgpack::Object rest;
  auto more = r.read(rest);
  if (!more) {
    llvm::consumeError(more.takeError());
    return false;
  }
  return !*more;
}

static const char *machTarget(unsigned mach) {
  switch (mach) {
  case llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX942: return "gfx942";
  case llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX950: return "gfx950";
  case llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1201: return "gfx1201";
  default: return nullptr;
  }
}

llvm::Expected<OwningOpRef<ModuleOp>> raiseCodeObject(MLIRContext *ctx, ArrayRef<uint8_t> bytes,
                                                      const RaiseOptions &opts) {
  ctx->loadDialect<AMDGCNDialect, cf::ControlFlowDialect, arith::ArithDialect>();
  using ELFO = llvm::object::ELF64LEObjectFile;
  auto fail = [&](const llvm::Twine &m) {
    return llvm::createStringError(("code object: " + m).str());
  };
  if (bytes.size() < 64 || StringRef((const char *)bytes.data(), 4) != "\x7f" "ELF")
    return fail("not an ELF file");
  auto objOr = ELFO::create(llvm::MemoryBufferRef(
      StringRef((const char *)bytes.data(), bytes.size()), opts.sourceName));
  if (!objOr)
    return fail(llvm::toString(objOr.takeError()));
  ELFO &obj = *objOr;
  const auto &elf = obj.getELFFile();
  const auto &hdr = elf.getHeader();
  if (hdr.e_machine != llvm::ELF::EM_AMDGPU)
    return fail("not an AMDGPU ELF (e_machine " + llvm::Twine(hdr.e_machine) + ")");
  const char *tgt = machTarget(hdr.e_flags & llvm::ELF::EF_AMDGPU_MACH);
  if (!tgt)
    return fail(llvm::formatv("unsupported processor (e_flags {0:x}); aster raises gfx942, "
                              "gfx950 and gfx1201",
                              (unsigned)hdr.e_flags)
                    .str());
  uint8_t bit = ISA::targetBit(tgt);
  std::vector<std::string> errors;
  RaisedModule rm(ctx, tgt, FileLineColLoc::get(StringAttr::get(ctx, opts.sourceName), 0, 0));
  unsigned abi = hdr.e_ident[llvm::ELF::EI_ABIVERSION];
  if (abi >= llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V4)
    rm.setCodeObjectVersion(abi - llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V4 + 4);

  // Sections: the code and where each descriptor lives.
  llvm::object::SectionRef text;
  unsigned textCount = 0;
  for (const llvm::object::SectionRef &s : obj.sections())
    if (s.isText()) {
      text = s;
      ++textCount;
    }
  if (textCount != 1)
    return fail("expected one code section, found " + llvm::Twine(textCount));
  auto textBytesOr = text.getContents();
  if (!textBytesOr)
    return fail(llvm::toString(textBytesOr.takeError()));
  ArrayRef<uint8_t> code((const uint8_t *)textBytesOr->data(), textBytesOr->size());
  uint64_t textAddr = text.getAddress();

  auto shdrs = elf.sections();
  if (!shdrs)
    return fail(llvm::toString(shdrs.takeError()));
  for (const auto &sec : *shdrs)
    if (sec.sh_type == llvm::ELF::SHT_SYMTAB || sec.sh_type == llvm::ELF::SHT_DYNSYM) {
      auto syms = elf.symbols(&sec);
      if (!syms) {
        llvm::consumeError(syms.takeError());
        return fail("the symbol table is damaged");
      }
    }
  std::vector<Symbol> funcs;
  std::map<std::string, Symbol> kds;
  for (const llvm::object::ELFSymbolRef &s : obj.symbols()) {
    auto name = s.getName();
    auto addr = s.getAddress();
    auto type = s.getType();
    if (!name || !addr || !type) {
      // A damaged symbol table: stop at once (it may claim billions of
      // entries, each an error).
      llvm::consumeError(name.takeError());
      llvm::consumeError(addr.takeError());
      llvm::consumeError(type.takeError());
      return fail("the symbol table is damaged");
    }
    if (*type == llvm::object::SymbolRef::ST_Function)
      funcs.push_back({name->str(), *addr, s.getSize()});
    else if (name->ends_with(".kd"))
      kds[name->drop_back(3).str()] = {name->str(), *addr, s.getSize()};
  }
  // Data sections (global variables) and what the code's addresses name.
  CodeObjectData data(obj, FileLineColLoc::get(StringAttr::get(ctx, opts.sourceName), 0, 0),
                      errors);
  llvm::sort(funcs, [](const Symbol &a, const Symbol &b) { return a.addr < b.addr; });
  funcs.erase(std::unique(funcs.begin(), funcs.end(),
                          [](const Symbol &a, const Symbol &b) { return a.addr == b.addr; }),
              funcs.end());
  if (funcs.empty())
    return fail("no kernels (no function symbols in the code section)");

  auto dis = target::InstDisassembler::create(tgt);
  if (!dis)
    return dis.takeError();

  InstParser parser(ctx, bit);
  StringAttr file = StringAttr::get(ctx, opts.sourceName);
  uint64_t lastEnd = textAddr;
  for (size_t fi = 0; fi < funcs.size(); ++fi) {
    const Symbol &f = funcs[fi];
    if (f.addr < textAddr || f.addr + f.size > textAddr + code.size()) {
      errors.push_back("function " + f.name + " lies outside the code section");
      continue;
    }
    if (!isAsmSymbol(f.name)) {
      errors.push_back("function at " + hexPc(f.addr) + " has a name that is not an "
                       "assembler symbol: '" + llvm::StringRef(f.name).take_front(40).str() + "'");
      continue;
    }
    // A function without a descriptor is a device function (called
    // through s_swappc_b64); it keeps its place: the smallest alignment
    // (at least 4 bytes, as LLVM aligns functions) that puts it where it is
    // after the code before it.
    bool isKernel = kds.count(f.name);
    unsigned p2align = 2;
    while (p2align <= 8 && llvm::alignTo(lastEnd, 1ull << p2align) < f.addr)
      ++p2align;
    if (fi == 0 && f.addr != textAddr)
      errors.push_back("code before the first function (" + hexPc(textAddr) + ")");
    else if (!isKernel && (p2align > 8 || llvm::alignTo(lastEnd, 1ull << p2align) != f.addr))
      errors.push_back("device function " + f.name + " (" + hexPc(f.addr) +
                       ") is not where an alignment puts it after the code before it");
    // A symbol without `.size` (hand-written assembly, as AMD's kernels):
    // the function reaches the next function or the end of the section.
    bool sized = f.size != 0;
    uint64_t end = f.addr + f.size;
    if (!sized)
      end = fi + 1 < funcs.size() ? funcs[fi + 1].addr : textAddr + code.size();
    // Decode once: instructions, and the branch targets that become labels.
    std::vector<Decoded> insts;
    insts.reserve((end - f.addr) / 6);
    std::set<uint64_t> targets;
    // LLVM's disassembler crashes on some words (llvm-objdump too): under
    // crash recovery, that is an error naming the function.
    if (llvm::Error e = runRecoverable("LLVM's disassembler failed", [&] {
      for (uint64_t pc = f.addr; pc < end;) {
        ArrayRef<uint8_t> at = code.slice(pc - textAddr, end - pc);
        target::InstDisassembler::Line line = (*dis)->decode(at, pc);
        Decoded d{pc, line.size, line.ok, ""};
        if (!d.ok) {
          d.size = std::min<uint64_t>(4, end - pc);
        } else {
          d.text = std::move(line.text);
          StringRef mn = StringRef(d.text).split(' ').first;
          if (parser.isBranch(mn)) {
            StringRef last = StringRef(d.text).rsplit(' ').second;
            int64_t v;
            if (parseAsmInteger(last, v)) {
              d.target = pc + 4 + 4 * (int64_t)(int16_t)(uint16_t)v;
              targets.insert(d.target);
            }
          }
        }
        insts.push_back(std::move(d));
        pc += insts.back().size;
      }
    })) {
      errors.push_back(f.name + ": " + llvm::toString(std::move(e)));
      continue;
    }
    // Without `.size`, what follows the last instruction that ends the flow
    // (and that no branch reaches: s_code_end padding, data) is the
    // function's code tail, kept as words.
    std::string codeTail;
    if (!sized) {
      size_t cut = insts.size();
      for (size_t ii = insts.size(); ii-- > 0;) {
        const Decoded &d = insts[ii];
        StringRef mn = StringRef(d.text).split(' ').first;
        if (d.ok && (mn == "s_endpgm" || mn == "s_branch" || mn == "s_setpc_b64")) {
          cut = ii + 1;
          break;
        }
        if (targets.count(d.pc))
          break;
      }
      if (cut < insts.size()) {
        uint64_t from = insts[cut].pc;
        codeTail = fillLines(code.slice(from - textAddr, end - from));
        insts.resize(cut);
      }
    }
    std::vector<bool> lossy = lossyTexts(insts, code, textAddr, tgt);
    nameAddresses(insts, code, textAddr, data, errors, f.name);
    Operation *owner =
        isKernel ? rm.addKernel(f.name, FileLineColLoc::get(file, 0, 0)).getOperation()
                 : rm.addDeviceFunction(f.name, FileLineColLoc::get(file, 0, 0), p2align)
                       .getOperation();
    KernelBody body(owner, parser, opts.keepUnknown, errors);
    auto labelName = [](uint64_t pc) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << ".L_" << llvm::format_hex_no_prefix(pc, 1);
      return s;
    };
    // The locations first, in one run (interleaved with making ops, each
    // costs about twice as much: the uniquer's table is out of cache).
    std::vector<Location> locs;
    locs.reserve(insts.size());
    for (const Decoded &d : insts)
      locs.push_back(pcLocation(file, d.pc));
    for (size_t ii = 0; ii < insts.size(); ++ii) {
      const Decoded &d = insts[ii];
      Location loc = locs[ii];
      if (targets.count(d.pc))
        body.label(labelName(d.pc), loc);
      SmallVector<int32_t> words;
      for (unsigned o = 0; o + 4 <= d.size; o += 4)
        words.push_back((int32_t)llvm::support::endian::read32le(code.data() + d.pc -
                                                                   textAddr + o));
      if (!d.ok && words.empty()) {
        // Fewer than 4 bytes left in the function (a `.size` that is not
        // whole words): nothing to keep, not even as data.
        errors.push_back(f.name + " " + hexPc(d.pc) + ": the function ends " +
                         std::to_string(d.size) + " byte(s) into a 4-byte word (its size " +
                         "is not a multiple of 4)");
        continue;
      }
      if (!d.ok) {
        if (opts.keepUnknown)
          body.data(words, "", loc);
        else
          errors.push_back(f.name + " " + hexPc(d.pc) + ": LLVM cannot decode the word " +
                           llvm::formatv("{0:x8}", words.empty() ? 0 : (uint32_t)words[0])
                               .str());
        continue;
      }
      if (lossy[ii]) {
        body.data(words, d.text, loc);
        continue;
      }
      auto where = [&] { return f.name + " " + hexPc(d.pc); };
      if (d.target >= 0)
        body.inst(StringRef(d.text).rsplit(' ').first.str() + " " + labelName(d.target), loc,
                  where, words);
      else
        body.inst(d.text, loc, where, words);
    }
    for (uint64_t tpc : targets)
      if (tpc < f.addr || tpc >= end)
        errors.push_back(f.name + ": a branch leaves the function (to " + hexPc(tpc) + ")");
    body.finish(f.name);
    if (!codeTail.empty()) {
      auto prev = owner->getAttrOfType<StringAttr>(kCodeTailAttr);
      owner->setAttr(kCodeTailAttr,
                     StringAttr::get(ctx, (prev ? prev.getValue().str() : "") + codeTail));
    }
    lastEnd = std::max(lastEnd, end);
    if (!isKernel)
      continue;

    // Descriptor.
    const Symbol &kd = kds[f.name];
    bool found = false;
    for (const llvm::object::SectionRef &s : obj.sections()) {
      if (kd.addr < s.getAddress() || kd.addr + 64 > s.getAddress() + s.getSize())
        continue;
      auto c = s.getContents();
      if (!c) {
        llvm::consumeError(c.takeError());
        continue;
      }
      found = true;
      auto desc = decodeKernelDescriptor(
          ctx, ArrayRef<uint8_t>((const uint8_t *)c->data() + (kd.addr - s.getAddress()), 64),
          bit);
      if (!desc)
        errors.push_back(f.name + ": " + llvm::toString(desc.takeError()));
      else
        rm.setDescriptor(f.name, *desc);
      break;
    }
    if (!found)
      errors.push_back(f.name + ": its descriptor " + kd.name + " is not inside a section");
  }
  data.addGlobals(rm);
  // Code after the last kernel (the code-end padding).
  uint64_t alignedEnd = llvm::alignTo(lastEnd - textAddr, 4);
  if (alignedEnd < code.size())
    rm.setTextTail(fillLines(code.drop_front(alignedEnd)));
  if (lastEnd - textAddr < alignedEnd)
    errors.push_back("the last kernel's size is not a multiple of 4 bytes");

  // Metadata note.
  bool sawNote = false;
  for (const auto &sec : *shdrs) {
    if (sec.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error err = llvm::Error::success();
    for (const auto &note : elf.notes(sec, err)) {
      if (note.getName() != "AMDGPU" || note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      sawNote = true;
      ArrayRef<uint8_t> desc = note.getDesc(sec.sh_addralign);
      llvm::msgpack::Document doc;
      if (!wellFormedMsgpack(StringRef((const char *)desc.data(), desc.size())) ||
          !doc.readFromBlob(StringRef((const char *)desc.data(), desc.size()), false)) {
        errors.push_back("the metadata note is not valid msgpack");
        continue;
      }
      if (auto e = rm.setMetadata(doc))
        errors.push_back(llvm::toString(std::move(e)));
    }
    if (err)
      errors.push_back("notes: " + llvm::toString(std::move(err)));
  }
  if (!sawNote)
    errors.push_back("no AMDGPU metadata note (NT_AMDGPU_METADATA): kernel arguments are "
                     "unknown");
  return rm.finish(errors);
}

} // namespace aster::raise
