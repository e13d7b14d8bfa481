//===- float_dump.cpp - run the emulator's float conversions on a file ----===//
//
//   aster-emu-float-dump MODE IN OUT
//
// Reads raw little-endian inputs from IN, converts each with the emulator's
// conversion routine for MODE and writes the raw results to OUT. Used by
// check_float.py to compare against ml_dtypes.
//   f32_to_f16 f32_to_bf16 f32_to_e4m3fnuz f32_to_e5m2fnuz (u32 in, u8/u16 out)
//   f16_to_f32 bf16_to_f32 (u16 in, u32 out), e4m3fnuz_to_f32 e5m2fnuz_to_f32
//   (u8 in, u32 out), f64_to_f16 (u64 in, u16 out)
//
//===----------------------------------------------------------------------===//
#include "emulator/Float.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace aster::emu;

static std::vector<uint8_t> readAll(const char *path) {
  std::vector<uint8_t> v;
  FILE *f = std::fopen(path, "rb");
  if (!f)
    return v;
  uint8_t buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
    v.insert(v.end(), buf, buf + n);
  std::fclose(f);
  return v;
}

template <class In, class Out, class F>
static std::vector<uint8_t> map(const std::vector<uint8_t> &in, F f) {
  size_t n = in.size() / sizeof(In);
  std::vector<uint8_t> out(n * sizeof(Out));
  for (size_t i = 0; i < n; ++i) {
    In x;
    std::memcpy(&x, in.data() + i * sizeof(In), sizeof(In));
    Out y = f(x);
    std::memcpy(out.data() + i * sizeof(Out), &y, sizeof(Out));
  }
  return out;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: aster-emu-float-dump MODE IN OUT\n");
    return 2;
  }
  std::string mode = argv[1];
  std::vector<uint8_t> in = readAll(argv[2]), out;
  if (mode == "f32_to_f16")
    out = map<uint32_t, uint16_t>(in, [](uint32_t x) { return f32ToF16(bitsf(x)); });
  else if (mode == "f32_to_bf16")
    out = map<uint32_t, uint16_t>(in, [](uint32_t x) { return f32ToBF16(bitsf(x)); });
  else if (mode == "f32_to_e4m3fnuz")
    out = map<uint32_t, uint8_t>(in, [](uint32_t x) { return f32ToFp8(bitsf(x), Fp8Kind::E4M3FNUZ, false); });
  else if (mode == "f32_to_e5m2fnuz")
    out = map<uint32_t, uint8_t>(in, [](uint32_t x) { return f32ToFp8(bitsf(x), Fp8Kind::E5M2FNUZ, false); });
  else if (mode == "f16_to_f32")
    out = map<uint16_t, uint32_t>(in, [](uint16_t x) { return fbits(f16ToF32(x)); });
  else if (mode == "bf16_to_f32")
    out = map<uint16_t, uint32_t>(in, [](uint16_t x) { return fbits(bf16ToF32(x)); });
  else if (mode == "e4m3fnuz_to_f32")
    out = map<uint8_t, uint32_t>(in, [](uint8_t x) { return fbits(fp8ToF32(x, Fp8Kind::E4M3FNUZ)); });
  else if (mode == "e5m2fnuz_to_f32")
    out = map<uint8_t, uint32_t>(in, [](uint8_t x) { return fbits(fp8ToF32(x, Fp8Kind::E5M2FNUZ)); });
  else if (mode == "f64_to_f16")
    out = map<uint64_t, uint16_t>(in, [](uint64_t x) {
      double d;
      std::memcpy(&d, &x, 8);
      return f64ToF16(d);
    });
  else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  FILE *f = std::fopen(argv[3], "wb");
  if (!f || std::fwrite(out.data(), 1, out.size(), f) != out.size()) {
    std::fprintf(stderr, "cannot write %s\n", argv[3]);
    return 1;
  }
  std::fclose(f);
  return 0;
}
