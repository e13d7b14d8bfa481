//===- Device.cpp - device buffers ----------------------------------------===//
#include "emulator/Emulator.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace llvm;

namespace aster::emu {

KernargBuilder &KernargBuilder::addRaw(const void *p, size_t size, size_t align) {
  size_t off = (bytes_.size() + align - 1) / align * align;
  bytes_.resize(off + size, 0);
  std::memcpy(bytes_.data() + off, p, size);
  return *this;
}

static constexpr uint64_t kBufferBase = 0x100000000ull;  // 4 GiB
static constexpr uint64_t kGuard = 1ull << 16;
static constexpr uint64_t kMaxBuffer = 1ull << 36;      // 64 GiB

Device::Device() : nextAddr_(kBufferBase) {}
Device::~Device() = default;

Expected<uint64_t> Device::allocate(uint64_t bytes, StringRef name, uint64_t slack) {
  if (bytes > kMaxBuffer)
    return createStringError("cannot allocate " + Twine(bytes).str() +
                             " bytes: the emulator's limit per buffer is 64 GiB");
  if (slack > kMaxBuffer - bytes)
    return createStringError("cannot allocate " + Twine(bytes).str() + " bytes with " +
                             Twine(slack).str() +
                             " bytes of slack: the emulator's limit per buffer is 64 GiB");
  uint64_t addr = nextAddr_;
  Buffer b;
  b.addr = addr;
  b.name = name.str();
  b.data.assign(bytes, 0);
  b.slack = slack;
  buffers_.emplace(addr, std::move(b));
  nextAddr_ += (bytes + slack + 4095) / 4096 * 4096 + kGuard;
  return addr;
}

Error Device::release(uint64_t addr) {
  auto it = buffers_.find(addr);
  if (it == buffers_.end())
    return createStringError("release: no buffer starts at 0x" + utohexstr(addr));
  buffers_.erase(it);
  return Error::success();
}

Expected<const Device::Buffer *> Device::bufferFor(uint64_t addr, uint64_t size) const {
  auto it = buffers_.upper_bound(addr);
  if (it != buffers_.begin()) {
    --it;
    const Buffer &b = it->second;
    uint64_t off = addr - b.addr;
    if (off <= b.data.size() && size <= b.data.size() - off)
      return &b;
  }
  return createStringError("device address range [0x" + utohexstr(addr) + ", 0x" +
                           utohexstr(addr + size) + ") is not inside one buffer");
}

Error Device::write(uint64_t addr, ArrayRef<uint8_t> data) {
  auto b = bufferFor(addr, data.size());
  if (!b)
    return b.takeError();
  Buffer &buf = const_cast<Buffer &>(**b);
  if (!data.empty())
    std::memcpy(buf.data.data() + (addr - buf.addr), data.data(), data.size());
  return Error::success();
}

Error Device::read(uint64_t addr, MutableArrayRef<uint8_t> out) const {
  auto b = bufferFor(addr, out.size());
  if (!b)
    return b.takeError();
  if (!out.empty())
    std::memcpy(out.data(), (*b)->data.data() + (addr - (*b)->addr), out.size());
  return Error::success();
}

Expected<MutableArrayRef<uint8_t>> Device::contents(uint64_t addr) {
  auto it = buffers_.find(addr);
  if (it == buffers_.end())
    return createStringError("no buffer starts at 0x" + utohexstr(addr));
  return MutableArrayRef<uint8_t>(it->second.data);
}

Expected<uint64_t> Device::bufferSize(uint64_t addr) const {
  auto it = buffers_.find(addr);
  if (it == buffers_.end())
    return createStringError("no buffer starts at 0x" + utohexstr(addr));
  return uint64_t(it->second.data.size());
}

} // namespace aster::emu
