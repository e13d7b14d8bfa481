//===- CodeObject.cpp - loading an AMDGPU code object --------------------===//
//
// ELF, symbols and notes through LLVM's Object library, kernel descriptors
// per llvm/Support/AMDHSAKernelDescriptor.h, metadata through msgpack.
//
//===----------------------------------------------------------------------===//
#include "recovery/Recovery.h"
#include "emulator/Decoder.h"
#include "emulator/Emulator.h"
#include "emulator/Memory.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace llvm;
namespace amdhsa = llvm::amdhsa;

namespace aster::emu {

uint32_t KernelInfo::explicitArgsSize() const {
  bool any = false;
  uint32_t end = 0;
  for (const KernelArg &a : args) {
    if (a.isHidden())
      continue;
    any = true;
    end = std::max(end, a.offset + a.size);
  }
  if (!any && args.empty())
    return kernargSize;
  return end;
}

uint32_t KernelInfo::kernargSegmentSize() const {
  uint32_t end = kernargSize;
  for (const KernelArg &a : args)
    end = std::max(end, a.offset + a.size);
  return end;
}

CodeObject::CodeObject() = default;
CodeObject::~CodeObject() = default;

const KernelInfo *CodeObject::findKernel(StringRef name) const {
  name.consume_back(".kd");
  for (const KernelInfo &k : kernels_)
    if (k.name == name)
      return &k;
  return nullptr;
}

Expected<const KernelInfo *> CodeObject::getKernel(StringRef name) const {
  if (const KernelInfo *k = findKernel(name))
    return k;
  std::string names;
  for (const KernelInfo &k : kernels_)
    names += (names.empty() ? "" : ", ") + k.name;
  return createStringError("no kernel named '" + name.str() + "' in the code object" +
                           (names.empty() ? " (it has no kernels)"
                                          : " (kernels: " + names + ")"));
}

std::string CodeObject::disassemble(const KernelInfo &k) const {
  std::string s;
  raw_string_ostream os(s);
  const Program &p = *program_;
  int64_t i = p.indexOf(k.entryAddr);
  uint64_t end = k.codeSize ? k.entryAddr + k.codeSize : p.end;
  for (; i >= 0 && size_t(i) + 1 < p.insts.size() && p.insts[i].pc < end; ++i)
    os << format_hex_no_prefix(p.insts[i].pc, 8) << ": " << p.text[i] << "\n";
  return s;
}

std::vector<std::string> CodeObject::unsupported(const KernelInfo &k) const {
  std::vector<std::string> out;
  const Program &p = *program_;
  int64_t i = p.indexOf(k.entryAddr);
  uint64_t end = k.codeSize ? k.entryAddr + k.codeSize : p.end;
  for (; i >= 0 && size_t(i) + 1 < p.insts.size() && p.insts[i].pc < end; ++i)
    if (!p.problems[i].empty())
      out.push_back("pc " + utohexstr(p.insts[i].pc) + ": " + p.text[i] + ": " +
                    p.problems[i]);
  return out;
}

/// Friend of CodeObject that fills it in.
class CodeObjectLoader {
public:
  static Expected<std::unique_ptr<CodeObject>> load(ArrayRef<uint8_t> bytes);
};

namespace {

Error fail(const Twine &msg) { return createStringError("code object: " + msg); }

const msgpack::DocNode *mapGet(const msgpack::DocNode &map, StringRef key) {
  if (!map.isMap())
    return nullptr;
  auto m = const_cast<msgpack::DocNode &>(map).getMap();
  auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}
bool getU64(const msgpack::DocNode *n, uint64_t &out) {
  if (!n)
    return false;
  if (n->getKind() == msgpack::Type::UInt) {
    out = n->getUInt();
    return true;
  }
  if (n->getKind() == msgpack::Type::Int && n->getInt() >= 0) {
    out = uint64_t(n->getInt());
    return true;
  }
  return false;
}
std::string getStr(const msgpack::DocNode *n) {
  return n && n->isString() ? n->getString().str() : std::string();
}

/// Walks the msgpack structure and rejects what msgpack::Document cannot
/// take safely: map keys that are not scalars (comparing those is
/// unreachable in LLVM), excessive nesting, truncated data.
Error validateMsgPack(StringRef blob) {
  msgpack::Reader reader(blob);
  struct Frame {
    uint64_t remaining;
    bool isMap;
  };
  std::vector<Frame> stack;
  uint64_t objects = 0;
  for (;;) {
    msgpack::Object obj;
    Expected<bool> more = reader.read(obj);
    if (!more)
      return fail("malformed AMDGPU metadata: " + toString(more.takeError()));
    if (!*more)
      break;
    if (++objects > (1u << 22))
      return fail("the AMDGPU metadata is too large");
    bool isContainer = obj.Kind == msgpack::Type::Array || obj.Kind == msgpack::Type::Map;
    if (!stack.empty()) {
      Frame &f = stack.back();
      bool isKey = f.isMap && (f.remaining % 2 == 0);
      if (isKey && (isContainer || obj.Kind == msgpack::Type::Extension))
        return fail("malformed AMDGPU metadata: a map key is not a scalar");
      --f.remaining;
    } else if (objects > 1) {
      return fail("malformed AMDGPU metadata: more than one top-level object");
    }
    if (isContainer && obj.Length > 0) {
      if (stack.size() >= 64)
        return fail("the AMDGPU metadata nests too deeply");
      bool isMap = obj.Kind == msgpack::Type::Map;
      stack.push_back({uint64_t(obj.Length) * (isMap ? 2 : 1), isMap});
    }
    while (!stack.empty() && stack.back().remaining == 0)
      stack.pop_back();
  }
  if (!stack.empty())
    return fail("malformed AMDGPU metadata: truncated");
  return Error::success();
}

Error parseMetadata(StringRef blob, std::vector<KernelInfo> &kernels) {
  if (Error e = validateMsgPack(blob))
    return e;
  msgpack::Document doc;
  if (!doc.readFromBlob(blob, false))
    return fail("the AMDGPU metadata note is not valid msgpack");
  const msgpack::DocNode &root = doc.getRoot();
  if (!root.isMap())
    return fail("the AMDGPU metadata is not a map");
  const msgpack::DocNode *ks = mapGet(root, "amdhsa.kernels");
  if (!ks)
    return Error::success();
  if (!ks->isArray())
    return fail("amdhsa.kernels is not an array");
  for (msgpack::DocNode &kn : const_cast<msgpack::DocNode *>(ks)->getArray()) {
    std::string sym = getStr(mapGet(kn, ".symbol"));
    std::string name = getStr(mapGet(kn, ".name"));
    StringRef base = StringRef(sym).ends_with(".kd") ? StringRef(sym).drop_back(3)
                                                      : StringRef(name);
    auto it = std::find_if(kernels.begin(), kernels.end(),
                           [&](const KernelInfo &k) { return k.name == base; });
    if (it == kernels.end())
      continue;  // metadata for a kernel without a descriptor: ignore
    KernelInfo &k = *it;
    uint64_t v;
    if (getU64(mapGet(kn, ".kernarg_segment_align"), v)) k.kernargSegmentAlign = uint32_t(v);
    if (getU64(mapGet(kn, ".max_flat_workgroup_size"), v)) k.maxFlatWorkgroupSize = uint32_t(v);
    if (getU64(mapGet(kn, ".wavefront_size"), v)) k.wavefrontSize = uint32_t(v);
    if (getU64(mapGet(kn, ".sgpr_count"), v)) k.sgprCount = uint32_t(v);
    if (getU64(mapGet(kn, ".vgpr_count"), v)) k.vgprCount = uint32_t(v);
    if (getU64(mapGet(kn, ".agpr_count"), v)) k.agprCount = uint32_t(v);
    if (const msgpack::DocNode *d = mapGet(kn, ".uses_dynamic_stack"))
      k.usesDynamicStack = d->getKind() == msgpack::Type::Boolean && d->getBool();
    const msgpack::DocNode *args = mapGet(kn, ".args");
    if (!args)
      continue;
    if (!args->isArray())
      return fail(".args of kernel " + k.name + " is not an array");
    for (msgpack::DocNode &an : const_cast<msgpack::DocNode *>(args)->getArray()) {
      KernelArg a;
      a.name = getStr(mapGet(an, ".name"));
      a.typeName = getStr(mapGet(an, ".type_name"));
      a.valueKind = getStr(mapGet(an, ".value_kind"));
      a.addressSpace = getStr(mapGet(an, ".address_space"));
      uint64_t off = 0, size = 0;
      if (!getU64(mapGet(an, ".offset"), off) || !getU64(mapGet(an, ".size"), size) ||
          off > (1u << 20) || size > (1u << 20))
        return fail("an argument of kernel " + k.name + " has no valid offset/size");
      a.offset = uint32_t(off);
      a.size = uint32_t(size);
      k.args.push_back(std::move(a));
    }
  }
  return Error::success();
}

} // namespace

Expected<std::unique_ptr<CodeObject>> CodeObjectLoader::load(ArrayRef<uint8_t> bytes) {
  MemoryBufferRef mb(StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()),
                     "code object");
  auto objOr = object::ELF64LEObjectFile::create(mb);
  if (!objOr)
    return fail("not a 64-bit little-endian ELF file: " + toString(objOr.takeError()));
  object::ELF64LEObjectFile &obj = *objOr;
  const object::ELF64LEFile &elf = obj.getELFFile();
  const auto &hdr = elf.getHeader();
  if (hdr.e_machine != ELF::EM_AMDGPU)
    return fail("not an AMDGPU ELF file (e_machine " + Twine(hdr.e_machine) + ")");
  if (hdr.e_ident[ELF::EI_OSABI] != ELF::ELFOSABI_AMDGPU_HSA)
    return fail("not an HSA code object (OS ABI " + Twine(hdr.e_ident[ELF::EI_OSABI]) + ")");
  unsigned mach = hdr.e_flags & ELF::EF_AMDGPU_MACH;
  std::unique_ptr<CodeObject> co(new CodeObject());
  switch (mach) {
  case 0x040: co->processor_ = "gfx940"; break;
  case 0x04b: co->processor_ = "gfx941"; break;
  case 0x04c: co->processor_ = "gfx942"; break;
  case 0x04f: co->processor_ = "gfx950"; break;
  default:
    return fail("unsupported processor (e_flags machine 0x" + utohexstr(mach) +
                "); the emulator runs gfx940/gfx941/gfx942/gfx950 code");
  }
  switch (hdr.e_ident[ELF::EI_ABIVERSION]) {
  case ELF::ELFABIVERSION_AMDGPU_HSA_V4: co->coVersion_ = 4; break;
  case ELF::ELFABIVERSION_AMDGPU_HSA_V5: co->coVersion_ = 5; break;
  case ELF::ELFABIVERSION_AMDGPU_HSA_V6: co->coVersion_ = 6; break;
  default:
    return fail("unsupported code object version (ABI version " +
                Twine(unsigned(hdr.e_ident[ELF::EI_ABIVERSION])) + "); need v4, v5 or v6");
  }

  // The loadable image.
  auto phdrs = elf.program_headers();
  if (!phdrs)
    return fail(toString(phdrs.takeError()));
  uint64_t imageSize = 0;
  for (const auto &ph : *phdrs)
    if (ph.p_type == ELF::PT_LOAD) {
      if (ph.p_filesz > ph.p_memsz || ph.p_offset > bytes.size() ||
          ph.p_filesz > bytes.size() - ph.p_offset || ph.p_vaddr > (1ull << 32) ||
          ph.p_memsz > (1ull << 32))
        return fail("malformed PT_LOAD segment");
      imageSize = std::max<uint64_t>(imageSize, ph.p_vaddr + ph.p_memsz);
    }
  if (imageSize == 0)
    return fail("no loadable segments");
  if (imageSize > (64u << 20))
    return fail("the loadable image is " + Twine(imageSize) + " bytes (limit 64 MiB)");
  co->image_.assign(imageSize, 0);
  for (const auto &ph : *phdrs)
    if (ph.p_type == ELF::PT_LOAD && ph.p_filesz)
      std::memcpy(co->image_.data() + ph.p_vaddr, bytes.data() + ph.p_offset, ph.p_filesz);

  // Code: the span of executable sections.
  uint64_t textLo = ~0ull, textHi = 0;
  for (const object::SectionRef &sec : obj.sections()) {
    if (!(object::ELFSectionRef(sec).getFlags() & ELF::SHF_EXECINSTR) || sec.getSize() == 0)
      continue;
    if (sec.getAddress() > imageSize || sec.getSize() > imageSize)
      return fail("an executable section lies outside the loadable image");
    textLo = std::min(textLo, sec.getAddress());
    textHi = std::max(textHi, sec.getAddress() + sec.getSize());
  }
  if (textLo >= textHi || textHi > imageSize)
    return fail("no executable section inside the loadable image");
  if (textHi - textLo > (16u << 20))
    return fail("the code is " + Twine(textHi - textLo) + " bytes (limit 16 MiB)");

  // Kernels: NAME.kd descriptors.
  std::map<std::string, uint64_t> funcSize;
  std::vector<std::pair<object::ELFSymbolRef, StringRef>> syms;
  for (const object::ELFSymbolRef &sym : obj.symbols()) {
    auto name = sym.getName();
    if (!name)
      return fail("bad symbol table: " + toString(name.takeError()));
    if (syms.size() > (1u << 20))
      return fail("too many symbols");
    syms.push_back({sym, *name});
    if (sym.getELFType() == ELF::STT_FUNC)
      funcSize[name->str()] = sym.getSize();
  }
  for (auto &[sym, symName] : syms) {
    std::optional<StringRef> name = symName;
    if (!name->ends_with(".kd") || sym.getELFType() != ELF::STT_OBJECT)
      continue;
    auto addr = sym.getAddress();
    if (!addr)
      return addr.takeError();
    KernelInfo k;
    k.name = name->drop_back(3).str();
    k.descriptorAddr = *addr;
    if (imageSize < 64 || *addr > imageSize - 64 || sym.getSize() < 64)
      return fail("kernel descriptor " + *name + " is outside the image or too small");
    const uint8_t *kd = co->image_.data() + *addr;
    auto rd32 = [&](unsigned off) { uint32_t v; std::memcpy(&v, kd + off, 4); return v; };
    int64_t entryOff;
    std::memcpy(&entryOff, kd + amdhsa::KERNEL_CODE_ENTRY_BYTE_OFFSET_OFFSET, 8);
    k.groupSegmentSize = rd32(amdhsa::GROUP_SEGMENT_FIXED_SIZE_OFFSET);
    k.privateSegmentSize = rd32(amdhsa::PRIVATE_SEGMENT_FIXED_SIZE_OFFSET);
    k.kernargSize = rd32(amdhsa::KERNARG_SIZE_OFFSET);
    k.rsrc3 = rd32(amdhsa::COMPUTE_PGM_RSRC3_OFFSET);
    k.rsrc1 = rd32(amdhsa::COMPUTE_PGM_RSRC1_OFFSET);
    k.rsrc2 = rd32(amdhsa::COMPUTE_PGM_RSRC2_OFFSET);
    std::memcpy(&k.codeProperties, kd + amdhsa::KERNEL_CODE_PROPERTIES_OFFSET, 2);
    std::memcpy(&k.kernargPreload, kd + amdhsa::KERNARG_PRELOAD_OFFSET, 2);
    k.entryAddr = *addr + uint64_t(entryOff);
    if (k.entryAddr < textLo || k.entryAddr >= textHi || (k.entryAddr & 3))
      return fail("the entry point of kernel " + k.name + " (0x" + utohexstr(k.entryAddr) +
                  ") is not in the code");
    auto fs = funcSize.find(k.name);
    k.codeSize = fs == funcSize.end() ? 0 : fs->second;
    k.userSgprCount = AMDHSA_BITS_GET(k.rsrc2, amdhsa::COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT);
    k.granulatedVgprs =
        (AMDHSA_BITS_GET(k.rsrc1, amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT) + 1) * 8;
    k.accumOffset = (AMDHSA_BITS_GET(k.rsrc3, amdhsa::COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET) + 1) * 4;
    co->kernels_.push_back(std::move(k));
  }

  auto shdrs = elf.sections();
  if (!shdrs)
    return fail(toString(shdrs.takeError()));

  // Dynamic relocations of the image, resolved for kImageBase.
  for (const auto &sh : *shdrs) {
    if (sh.sh_type != ELF::SHT_RELA)
      continue;
    auto relas = elf.relas(sh);
    if (!relas)
      return fail("bad relocation section: " + toString(relas.takeError()));
    const object::ELF64LE::Shdr *symtab = nullptr;
    if (sh.sh_link) {
      auto st = elf.getSection(sh.sh_link);
      if (!st)
        return fail("bad relocation section link: " + toString(st.takeError()));
      symtab = *st;
    }
    for (const auto &r : *relas) {
      uint32_t type = r.getType(false);
      uint64_t off = r.r_offset;
      uint64_t value;
      unsigned size = 8;
      if (type == ELF::R_AMDGPU_NONE)
        continue;
      if (type == ELF::R_AMDGPU_RELATIVE64) {
        value = kImageBase + uint64_t(r.r_addend);
      } else if (type == ELF::R_AMDGPU_ABS64 || type == ELF::R_AMDGPU_ABS32 ||
                 type == ELF::R_AMDGPU_ABS32_LO || type == ELF::R_AMDGPU_ABS32_HI) {
        if (!symtab)
          return fail("relocation without a symbol table");
        auto sym = elf.getRelocationSymbol(r, symtab);
        if (!sym || !*sym)
          return fail("relocation with a bad symbol");
        if ((*sym)->st_shndx == ELF::SHN_UNDEF)
          return fail("relocation against an undefined symbol (external references "
                      "cannot be resolved by the emulator)");
        value = kImageBase + (*sym)->st_value + uint64_t(r.r_addend);
        if (type == ELF::R_AMDGPU_ABS32_HI)
          value >>= 32;
        if (type != ELF::R_AMDGPU_ABS64)
          size = 4;
      } else {
        return fail("unsupported relocation type " + Twine(type));
      }
      if (off > imageSize || size > imageSize - off)
        return fail("relocation outside the loadable image");
      std::memcpy(co->image_.data() + off, &value, size);
    }
  }

  // Metadata note.
  for (const auto &sh : *shdrs) {
    if (sh.sh_type != ELF::SHT_NOTE)
      continue;
    Error err = Error::success();
    for (const auto &note : elf.notes(sh, err)) {
      if (note.getName() != "AMDGPU" || note.getType() != ELF::NT_AMDGPU_METADATA)
        continue;
      ArrayRef<uint8_t> desc = note.getDesc(sh.sh_addralign ? sh.sh_addralign : 4);
      if (Error e = parseMetadata(StringRef(reinterpret_cast<const char *>(desc.data()),
                                            desc.size()),
                                  co->kernels_))
        return std::move(e);
    }
    if (err)
      return fail("malformed note section: " + toString(std::move(err)));
  }

  // Decode all code once.
  auto prog = decodeProgram(ArrayRef<uint8_t>(co->image_).slice(textLo, textHi - textLo),
                            textLo, co->processor_);
  if (!prog)
    return prog.takeError();
  co->program_ = std::move(*prog);
  return std::move(co);
}

Expected<std::unique_ptr<CodeObject>> CodeObject::load(ArrayRef<uint8_t> bytes) {
  // The bytes come from the user: ELF/metadata parsing and LLVM's
  // disassembler run under crash recovery (an LLVM fatal error becomes an Error).
  std::optional<Expected<std::unique_ptr<CodeObject>>> result;
  if (Error e = runRecoverable("cannot load the code object",
                               [&] { result.emplace(CodeObjectLoader::load(bytes)); }))
    return std::move(e);
  return std::move(*result);
}

Expected<std::unique_ptr<CodeObject>> CodeObject::loadFile(StringRef path) {
  auto mb = MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!mb)
    return createStringError("cannot read " + path.str() + ": " + mb.getError().message());
  return load(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>((*mb)->getBufferStart()),
                                (*mb)->getBufferSize()));
}

} // namespace aster::emu
