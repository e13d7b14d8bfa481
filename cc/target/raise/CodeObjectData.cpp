//===- CodeObjectData.cpp - a linked code object's data and references ---===//
#include "target/raise/CodeObjectData.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using llvm::StringRef;

namespace aster::raise {

namespace {
bool linkerSection(StringRef name) {
  return name == ".dynamic" || name == ".got" || name == ".got.plt" ||
         name == ".relro_padding" || name.starts_with(".note") || name == ".dynsym" ||
         name == ".dynstr" || name == ".hash" || name == ".gnu.hash" ||
         name.starts_with(".rela") || name.starts_with(".rel.");
}

std::string hex(uint64_t v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format_hex(v, 2);
  return s;
}
} // namespace

CodeObjectData::CodeObjectData(const ELFO &obj, Location loc,
                               std::vector<std::string> &errors) {
  const auto &elf = obj.getELFFile();
  auto shdrs = elf.sections();
  if (!shdrs) {
    llvm::consumeError(shdrs.takeError());
    return;
  }
  // Data sections.
  std::vector<int> secOf(shdrs->size(), -1);
  for (unsigned i = 0; i < shdrs->size(); ++i) {
    const auto &sh = (*shdrs)[i];
    auto name = elf.getSectionName(sh);
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == ".got") {
      gotRange = {sh.sh_addr, sh.sh_addr + sh.sh_size};
      continue;
    }
    if (!(sh.sh_flags & llvm::ELF::SHF_ALLOC) || (sh.sh_flags & llvm::ELF::SHF_EXECINSTR) ||
        (sh.sh_type != llvm::ELF::SHT_PROGBITS && sh.sh_type != llvm::ELF::SHT_NOBITS) ||
        linkerSection(*name) || !sh.sh_size)
      continue;
    Section s{name->str(), sh.sh_addr, sh.sh_size, std::max<uint64_t>(sh.sh_addralign, 1),
              sh.sh_type == llvm::ELF::SHT_NOBITS, {}};
    if (s.size > (1ull << 28) || s.addr + s.size < s.addr || s.align > (1u << 16)) {
      errors.push_back("data section " + s.name + " is too large or misaligned");
      continue;
    }
    if (!s.nobits) {
      auto c = elf.getSectionContents(sh);
      if (!c || c->size() != sh.sh_size) {
        if (!c)
          llvm::consumeError(c.takeError());
        errors.push_back("section " + s.name + " cannot be read");
        continue;
      }
      s.bytes = *c;
    }
    secOf[i] = sections.size();
    sections.push_back(s);
  }
  // Symbols: region starts; functions (and kernels) for code addresses.
  for (const llvm::object::ELFSymbolRef &sym : obj.symbols()) {
    auto name = sym.getName();
    auto addr = sym.getAddress();
    auto type = sym.getType();
    auto sec = sym.getSection();
    if (!name || !addr || !type || !sec) {
      if (!name)
        llvm::consumeError(name.takeError());
      if (!addr)
        llvm::consumeError(addr.takeError());
      if (!type)
        llvm::consumeError(type.takeError());
      if (!sec)
        llvm::consumeError(sec.takeError());
      continue;
    }
    if (name->empty() || *sec == obj.section_end())
      continue;
    uint8_t binding = sym.getBinding(), vis = sym.getOther() & 3;
    std::string linkage = binding == llvm::ELF::STB_LOCAL ? "local"
                          : vis == llvm::ELF::STV_PROTECTED ? "protected"
                          : vis == llvm::ELF::STV_HIDDEN    ? "hidden"
                                                             : "default";
    if (binding == llvm::ELF::STB_WEAK)
      errors.push_back("symbol " + name->str() + " is weak; weak symbols are not raised");
    unsigned shIndex = (*sec)->getIndex();
    if (*type == llvm::object::SymbolRef::ST_Function) {
      regions[*addr] = {name->str(), *addr, *addr + sym.getSize(), ~0u};
      continue;
    }
    if (shIndex >= secOf.size() || secOf[shIndex] < 0 || *type != llvm::object::SymbolRef::ST_Data)
      continue;
    const Section &in = sections[secOf[shIndex]];
    if (*addr < in.addr || *addr > in.addr + in.size) {
      errors.push_back("symbol " + name->str() + " lies outside its section " + in.name);
      continue;
    }
    symInfo[name->str()] = {linkage, sym.getSize()};
    auto [it, isNew] = regions.try_emplace(*addr, Region{name->str(), *addr, 0, (unsigned)secOf[shIndex]});
    if (!isNew && it->second.section == ~0u)
      it->second = Region{name->str(), *addr, 0, (unsigned)secOf[shIndex]};
  }
  // Unnamed starts of data sections; each region ends where the next one
  // of its section starts.
  for (unsigned s = 0; s < sections.size(); ++s) {
    auto it = regions.find(sections[s].addr);
    if (it == regions.end() || it->second.section != s)
      regions[sections[s].addr] = {".L__aster_data_" + llvm::utohexstr(sections[s].addr, true),
                                   sections[s].addr, 0, s};
  }
  for (auto it = regions.begin(); it != regions.end(); ++it) {
    if (it->second.section == ~0u)
      continue;
    const Section &s = sections[it->second.section];
    auto next = std::next(it);
    it->second.end = next != regions.end() && next->first < s.addr + s.size ? next->first
                                                                             : s.addr + s.size;
  }
  // Dynamic relocations: data fields and GOT slots.
  for (const auto &sh : *shdrs) {
    if (sh.sh_type != llvm::ELF::SHT_RELA)
      continue;
    auto relas = elf.relas(sh);
    auto symtab = elf.getSection(sh.sh_link);
    if (!relas || !symtab) {
      if (!relas)
        llvm::consumeError(relas.takeError());
      if (!symtab)
        llvm::consumeError(symtab.takeError());
      errors.push_back("a relocation section cannot be read");
      continue;
    }
    for (const auto &r : *relas) {
      uint32_t type = r.getType(false);
      std::string sym;
      int64_t addend = r.r_addend;
      if (type == llvm::ELF::R_AMDGPU_RELATIVE64) {
        bool got;
        if (!name((uint64_t)r.r_addend, sym, addend, got) || got) {
          errors.push_back("a relocation at " + hex(r.r_offset) + " points at " +
                           hex(r.r_addend) + ", which is in no function or data");
          continue;
        }
      } else if (type == llvm::ELF::R_AMDGPU_ABS64) {
        auto s = elf.getRelocationSymbol(r, *symtab);
        auto strtab = s && *s ? elf.getStringTableForSymtab(**symtab) : llvm::Expected<StringRef>(StringRef());
        if (!s || !*s || !strtab) {
          if (!s)
            llvm::consumeError(s.takeError());
          if (!strtab)
            llvm::consumeError(strtab.takeError());
          errors.push_back("a relocation at " + hex(r.r_offset) + " has no symbol");
          continue;
        }
        auto n = (*s)->getName(*strtab);
        if (!n) {
          llvm::consumeError(n.takeError());
          continue;
        }
        sym = n->str();
      } else {
        errors.push_back("relocation type " + std::to_string(type) + " at " + hex(r.r_offset) +
                         " is not raised (R_AMDGPU_RELATIVE64 and R_AMDGPU_ABS64 are)");
        continue;
      }
      if (r.r_offset >= gotRange.first && r.r_offset < gotRange.second) {
        if (addend)
          errors.push_back("the GOT slot at " + hex(r.r_offset) + " holds " + sym + "+" +
                           std::to_string(addend) + ", not a symbol's address");
        gotSlots[r.r_offset] = sym;
      } else {
        dataRelocs[r.r_offset] = {sym, addend};
      }
    }
  }
  // The regions as globals (descriptors are the kernels').
  for (auto &[addr, r] : regions) {
    if (r.section == ~0u || StringRef(r.name).ends_with(".kd"))
      continue;
    const Section &s = sections[r.section];
    RawGlobal g{r.name, s.name, 1, {}, {}, "local", std::nullopt, loc};
    uint64_t lowbit = addr & -addr;
    g.alignment = addr == s.addr ? s.align : std::min<uint64_t>(s.align, lowbit ? lowbit : s.align);
    if (s.nobits)
      g.bytes.assign(r.end - addr, 0);
    else
      g.bytes.assign(s.bytes.begin() + (addr - s.addr), s.bytes.begin() + (r.end - s.addr));
    auto info = symInfo.find(r.name);
    if (info != symInfo.end()) {
      g.linkage = info->second.linkage;
      g.symbolSize = info->second.size;
    }
    for (auto it = dataRelocs.lower_bound(addr); it != dataRelocs.end() && it->first < r.end;
         ++it) {
      if (it->first + 8 > r.end) {
        errors.push_back("a relocation at " + hex(it->first) + " crosses the end of " + r.name);
        continue;
      }
      g.relocs.push_back({it->first - addr, it->second.first, it->second.second, 8});
      std::fill(g.bytes.begin() + (it->first - addr), g.bytes.begin() + (it->first - addr) + 8, 0);
    }
    globals.push_back(std::move(g));
  }
}

const CodeObjectData::Region *CodeObjectData::regionAt(uint64_t addr) const {
  auto it = regions.upper_bound(addr);
  if (it == regions.begin())
    return nullptr;
  --it;
  const Region &r = it->second;
  if (r.section == ~0u)
    return addr < std::max(r.end, r.addr + 1) ? &r : nullptr;
  return addr <= r.end ? &r : nullptr;
}

bool CodeObjectData::name(uint64_t addr, std::string &symbol, int64_t &offset,
                          bool &got) const {
  got = false;
  auto g = gotSlots.find(addr);
  if (g != gotSlots.end()) {
    got = true;
    symbol = g->second;
    offset = 0;
    return true;
  }
  const Region *r = regionAt(addr);
  if (!r)
    return false;
  symbol = r->name;
  offset = (int64_t)(addr - r->addr);
  return true;
}

void CodeObjectData::addGlobals(RaisedModule &rm) const {
  for (const RawGlobal &g : globals)
    addGlobal(rm, g);
}

} // namespace aster::raise
