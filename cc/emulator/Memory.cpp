//===- Memory.cpp - the emulated global address space --------------------===//
#include "emulator/Memory.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace aster::emu {

void AddressSpace::add(const Region &r) {
  auto it = std::lower_bound(regions_.begin(), regions_.end(), r.base,
                             [](const Region &a, uint64_t b) { return a.base < b; });
  regions_.insert(it, r);
}

const Region *AddressSpace::find(uint64_t addr, uint64_t n) const {
  // Last region with base <= addr.
  auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                             [](uint64_t a, const Region &b) { return a < b.base; });
  if (it == regions_.begin())
    return nullptr;
  --it;
  return it->contains(addr, n) ? &*it : nullptr;
}

std::string AddressSpace::describe(uint64_t addr, uint64_t n) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  const Region *below = nullptr, *above = nullptr;
  for (const Region &r : regions_) {
    if (r.base <= addr)
      below = &r;
    else if (!above)
      above = &r;
  }
  auto name = [](const Region &r) {
    return r.name.empty() ? std::string("buffer") : "'" + r.name + "'";
  };
  auto slack = [](const Region &r) {
    return r.slack ? " (with " + std::to_string(r.slack) + " bytes of slack)" : std::string();
  };
  if (below && addr < below->base + below->size) {
    os << "the access of " << n << " bytes runs past the end of " << name(*below)
       << " [" << llvm::format_hex(below->base, 0) << ", "
       << llvm::format_hex(below->base + below->size, 0) << ")" << slack(*below) << " by "
       << (addr + n - below->base - below->size) << " bytes";
    return s;
  }
  bool any = false;
  if (below) {
    os << (addr - below->base - below->size) << " bytes after the end of "
       << name(*below) << " [" << llvm::format_hex(below->base, 0) << ", "
       << llvm::format_hex(below->base + below->size, 0) << ")" << slack(*below);
    any = true;
  }
  if (above) {
    os << (any ? "; " : "") << (above->base - addr) << " bytes before "
       << name(*above) << " [" << llvm::format_hex(above->base, 0) << ", "
       << llvm::format_hex(above->base + above->size, 0) << ")";
    any = true;
  }
  if (!any)
    os << "no buffers are mapped";
  return s;
}

} // namespace aster::emu
