//===- KernelRecord.cpp - descriptor and metadata kept as attributes -----===//
//
// Field positions come from llvm/Support/AMDHSAKernelDescriptor.h (the
// AMDHSA_BITS masks); the directive names and the granule rules from LLVM's
// AMDGPUUsage ("Kernel Descriptor", "AMDHSA Kernel Assembler Directives").
//
//===----------------------------------------------------------------------===//
#include "target/raise/KernelRecord.h"
#include "target/KernelMetadata.h"

#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;
namespace amdhsa = llvm::amdhsa;

namespace aster::raise {

namespace {
enum Word : uint8_t { GROUP, PRIVATE, KERNARG, RSRC3, RSRC1, RSRC2, KCP, PRELOAD };
constexpr unsigned kWordOffset[] = {
    amdhsa::GROUP_SEGMENT_FIXED_SIZE_OFFSET, amdhsa::PRIVATE_SEGMENT_FIXED_SIZE_OFFSET,
    amdhsa::KERNARG_SIZE_OFFSET, amdhsa::COMPUTE_PGM_RSRC3_OFFSET,
    amdhsa::COMPUTE_PGM_RSRC1_OFFSET, amdhsa::COMPUTE_PGM_RSRC2_OFFSET,
    amdhsa::KERNEL_CODE_PROPERTIES_OFFSET, amdhsa::KERNARG_PRELOAD_OFFSET};

enum When : uint8_t {
  Always,     ///< always written
  IfSet,      ///< written only when not zero (directive not on every target)
};
constexpr uint8_t GFX9 = ISA::T_GFX942 | ISA::T_GFX950;
constexpr uint8_t ALL = GFX9 | ISA::T_GFX1201;

struct Field {
  const char *directive;
  Word word;
  int32_t mask;  ///< AMDHSA_BITS mask; 0: the whole word
  unsigned shift;
  uint8_t targets;
  When when;
};

#define F(D, W, M, T, WH) {D, W, amdhsa::M, amdhsa::M##_SHIFT, T, WH}
const Field kFields[] = {
    {"group_segment_fixed_size", GROUP, 0, 0, ALL, Always},
    {"private_segment_fixed_size", PRIVATE, 0, 0, ALL, Always},
    {"kernarg_size", KERNARG, 0, 0, ALL, Always},
    F("user_sgpr_count", RSRC2, COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT, ALL, Always),
    F("user_sgpr_private_segment_buffer", KCP,
      KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER, ALL, IfSet),
    F("user_sgpr_dispatch_ptr", KCP, KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR, ALL, Always),
    F("user_sgpr_queue_ptr", KCP, KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR, ALL, Always),
    F("user_sgpr_kernarg_segment_ptr", KCP,
      KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR, ALL, Always),
    F("user_sgpr_dispatch_id", KCP, KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID, ALL, Always),
    F("user_sgpr_flat_scratch_init", KCP, KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT,
      ALL, IfSet),
    F("user_sgpr_private_segment_size", KCP,
      KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE, ALL, Always),
    F("wavefront_size32", KCP, KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32, ISA::T_GFX1201,
      Always),
    F("uses_dynamic_stack", KCP, KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK, ALL, Always),
    F("user_sgpr_kernarg_preload_length", PRELOAD, KERNARG_PRELOAD_SPEC_LENGTH, GFX9, Always),
    F("user_sgpr_kernarg_preload_offset", PRELOAD, KERNARG_PRELOAD_SPEC_OFFSET, GFX9, Always),
    F("enable_private_segment", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_PRIVATE_SEGMENT, ALL, Always),
    F("system_sgpr_workgroup_id_x", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X, ALL,
      Always),
    F("system_sgpr_workgroup_id_y", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y, ALL,
      Always),
    F("system_sgpr_workgroup_id_z", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z, ALL,
      Always),
    F("system_sgpr_workgroup_info", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_INFO, ALL,
      Always),
    F("system_vgpr_workitem_id", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_VGPR_WORKITEM_ID, ALL, Always),
    F("float_round_mode_32", RSRC1, COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_32, ALL, Always),
    F("float_round_mode_16_64", RSRC1, COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_16_64, ALL, Always),
    F("float_denorm_mode_32", RSRC1, COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_32, ALL, Always),
    F("float_denorm_mode_16_64", RSRC1, COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_16_64, ALL, Always),
    F("dx10_clamp", RSRC1, COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_DX10_CLAMP, GFX9, Always),
    F("ieee_mode", RSRC1, COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_IEEE_MODE, GFX9, Always),
    F("fp16_overflow", RSRC1, COMPUTE_PGM_RSRC1_GFX9_PLUS_FP16_OVFL, ALL, Always),
    F("workgroup_processor_mode", RSRC1, COMPUTE_PGM_RSRC1_GFX10_PLUS_WGP_MODE, ISA::T_GFX1201,
      Always),
    F("memory_ordered", RSRC1, COMPUTE_PGM_RSRC1_GFX10_PLUS_MEM_ORDERED, ISA::T_GFX1201, Always),
    F("forward_progress", RSRC1, COMPUTE_PGM_RSRC1_GFX10_PLUS_FWD_PROGRESS, ISA::T_GFX1201,
      Always),
    F("tg_split", RSRC3, COMPUTE_PGM_RSRC3_GFX90A_TG_SPLIT, GFX9, Always),
    F("exception_fp_ieee_invalid_op", RSRC2,
      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION, ALL, Always),
    F("exception_fp_denorm_src", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE,
      ALL, Always),
    F("exception_fp_ieee_div_zero", RSRC2,
      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO, ALL, Always),
    F("exception_fp_ieee_overflow", RSRC2,
      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW, ALL, Always),
    F("exception_fp_ieee_underflow", RSRC2,
      COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW, ALL, Always),
    F("exception_fp_ieee_inexact", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT,
      ALL, Always),
    F("exception_int_div_zero", RSRC2, COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO,
      ALL, Always),
};
#undef F
} // namespace

llvm::Expected<DictionaryAttr> decodeKernelDescriptor(MLIRContext *ctx, ArrayRef<uint8_t> kd,
                                                      uint8_t target) {
  if (kd.size() < sizeof(amdhsa::kernel_descriptor_t))
    return llvm::createStringError("kernel descriptor: " + std::to_string(kd.size()) +
                                   " bytes, expected 64");
  uint32_t words[8];
  uint32_t covered[8] = {~0u, ~0u, ~0u, 0, 0, 0, 0, 0};
  for (unsigned w = 0; w < 8; ++w) {
    unsigned off = kWordOffset[w];
    words[w] = w >= KCP ? llvm::support::endian::read16le(kd.data() + off)
                        : llvm::support::endian::read32le(kd.data() + off);
  }
  SmallVector<NamedAttribute> attrs;
  IntegerType i64 = IntegerType::get(ctx, 64);
  auto add = [&](StringRef name, uint64_t v) {
    attrs.push_back(NamedAttribute(StringAttr::get(ctx, name), IntegerAttr::get(i64, v)));
  };
  for (const Field &f : kFields) {
    if (!(f.targets & target))
      continue;
    uint32_t mask = f.mask ? (uint32_t)f.mask : ~0u;
    uint64_t v = (words[f.word] & mask) >> f.shift;
    covered[f.word] |= mask;
    if (f.when == IfSet && !v)
      continue;
    add(f.directive, v);
  }
  // Register counts are stored in granules; write counts that give the
  // same granules. VGPRs: granule 8 (gfx90a+ unified file, gfx12 wave32).
  uint32_t vg = (words[RSRC1] & amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT) >>
                amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT_SHIFT;
  covered[RSRC1] |= amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT;
  add("next_free_vgpr", (vg + 1) * 8);
  uint32_t sg = (words[RSRC1] & amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT) >>
                amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT_SHIFT;
  covered[RSRC1] |= amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT;
  if (target & GFX9) {
    // SGPR blocks of 8 hold next_free_sgpr plus 6 the assembler adds on
    // gfx94x/gfx95x (xnack mask, flat scratch) when vcc is not reserved.
    add("next_free_sgpr", sg ? 8 * sg - 5 : 0);
    add("reserve_vcc", 0);
    uint32_t acc = (words[RSRC3] & amdhsa::COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET) >>
                   amdhsa::COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET_SHIFT;
    covered[RSRC3] |= amdhsa::COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET;
    add("accum_offset", (acc + 1) * 4);
  } else {
    add("next_free_sgpr", 0);
  }
  static const char *kWordNames[] = {"group_segment_fixed_size", "private_segment_fixed_size",
                                     "kernarg_size", "compute_pgm_rsrc3", "compute_pgm_rsrc1",
                                     "compute_pgm_rsrc2", "kernel_code_properties",
                                     "kernarg_preload"};
  for (unsigned w = 0; w < 8; ++w) {
    uint32_t left = words[w] & ~covered[w];
    if (left)
      return llvm::createStringError(
          llvm::formatv("kernel descriptor: {0} has bits {1:x} that no .amdhsa directive "
                        "can express",
                        kWordNames[w], left)
              .str());
  }
  return DictionaryAttr::get(ctx, attrs);
}

void writeDescriptorDirectives(StringRef kernel, DictionaryAttr desc, raw_ostream &os) {
  target::writeDescriptorText(kernel, descriptorDirectiveValues(desc), os);
}

void writeDataLine(DataOp data, raw_ostream &os) {
  if (auto words = data.getWords()) {
    os << "\t.long ";
    for (unsigned i = 0; i < words->size(); ++i)
      os << (i ? ", " : "") << llvm::format_hex((uint32_t)(*words)[i], 10);
    if (auto t = data.getText())
      os << "\t; " << *t;
  } else if (auto t = data.getText()) {
    os << "\t" << *t;
  }
  os << "\n";
}

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

Attribute msgpackToAttr(MLIRContext *ctx, const llvm::msgpack::DocNode &n) {
  using llvm::msgpack::Type;
  IntegerType i64 = IntegerType::get(ctx, 64);
  switch (n.getKind()) {
  case Type::Int:
    return IntegerAttr::get(i64, n.getInt());
  case Type::UInt:
    return IntegerAttr::get(i64, (int64_t)n.getUInt());
  case Type::Boolean:
    return BoolAttr::get(ctx, n.getBool());
  case Type::Float:
    return FloatAttr::get(Float64Type::get(ctx), n.getFloat());
  case Type::String:
    return StringAttr::get(ctx, n.getString());
  case Type::Array: {
    SmallVector<Attribute> elts;
    for (const auto &e : const_cast<llvm::msgpack::DocNode &>(n).getArray())
      elts.push_back(msgpackToAttr(ctx, e));
    return ArrayAttr::get(ctx, elts);
  }
  case Type::Map: {
    SmallVector<NamedAttribute> elts;
    for (auto &kv : const_cast<llvm::msgpack::DocNode &>(n).getMap()) {
      std::string key = kv.first.isString() ? kv.first.getString().str() : kv.first.toString();
      elts.push_back(NamedAttribute(StringAttr::get(ctx, key), msgpackToAttr(ctx, kv.second)));
    }
    return DictionaryAttr::get(ctx, elts);
  }
  default:
    return UnitAttr::get(ctx);
  }
}

llvm::msgpack::DocNode attrToMsgpack(llvm::msgpack::Document &doc, Attribute a) {
  if (auto b = dyn_cast<BoolAttr>(a))
    return doc.getNode(b.getValue());
  if (auto i = dyn_cast<IntegerAttr>(a)) {
    int64_t v = i.getValue().getSExtValue();
    return v < 0 ? doc.getNode(v) : doc.getNode((uint64_t)v);
  }
  if (auto f = dyn_cast<FloatAttr>(a))
    return doc.getNode(f.getValueAsDouble());
  if (auto s = dyn_cast<StringAttr>(a))
    return doc.getNode(s.getValue(), /*Copy=*/true);
  if (auto arr = dyn_cast<ArrayAttr>(a)) {
    auto out = doc.getArrayNode();
    for (Attribute e : arr)
      out.push_back(attrToMsgpack(doc, e));
    return out;
  }
  if (auto d = dyn_cast<DictionaryAttr>(a)) {
    auto out = doc.getMapNode();
    for (NamedAttribute na : d)
      out[doc.getNode(na.getName().getValue(), true)] = attrToMsgpack(doc, na.getValue());
    return out;
  }
  return doc.getEmptyNode();
}

bool hasRecordedMetadata(KernelModuleOp m) {
  return m->hasAttr(kMetadataAttr);
}

void buildRecordedMetadata(KernelModuleOp m, llvm::msgpack::Document &doc,
                           llvm::function_ref<llvm::msgpack::DocNode(unsigned)> computed) {
  auto root = doc.getMapNode();
  if (auto top = m->getAttrOfType<DictionaryAttr>(kMetadataAttr))
    for (NamedAttribute na : top)
      root[doc.getNode(na.getName().getValue(), true)] = attrToMsgpack(doc, na.getValue());
  auto kernels = doc.getArrayNode();
  unsigned i = 0;
  for (auto k : m.getBody().front().getOps<KernelOp>()) {
    if (auto md = k->getAttrOfType<DictionaryAttr>(kMetadataAttr))
      kernels.push_back(attrToMsgpack(doc, md));
    else
      kernels.push_back(computed(i));
    ++i;
  }
  root[doc.getNode("amdhsa.kernels")] = kernels;
  doc.getRoot() = root;
}

void writeRecordedMetadata(llvm::msgpack::Document &doc, raw_ostream &os) {
  os << "\t.amdgpu_metadata\n";
  std::string yaml;
  llvm::raw_string_ostream ys(yaml);
  doc.toYAML(ys);
  os << yaml;
  if (!yaml.empty() && yaml.back() != '\n')
    os << "\n";
  os << "\t.end_amdgpu_metadata\n";
}

} // namespace aster::raise

//===----------------------------------------------------------------------===//
// Descriptor from directive values (what the assembler's `.amdhsa_kernel`
// makes of them; AMDGPUUsage "AMDHSA Kernel Assembler Directives")
//===----------------------------------------------------------------------===//

namespace aster::raise {

llvm::Expected<std::array<uint8_t, 64>>
encodeKernelDescriptor(ArrayRef<std::pair<std::string, int64_t>> directives, uint8_t target,
                       const llvm::MCSubtargetInfo &sti) {
  static_assert(sizeof(amdhsa::kernel_descriptor_t) == 64);
  auto fail = [](const Twine &why) {
    return llvm::createStringError("kernel descriptor: " + why.str());
  };
  uint32_t words[8] = {};
  auto setBits = [&](Word w, uint32_t mask, unsigned shift, uint64_t v) {
    words[w] = (words[w] & ~mask) | ((uint32_t)(v << shift) & mask);
  };
  // The assembler's defaults (MCKernelDescriptor::getDefaultAmdhsaKernelDescriptor).
  bool gfx9 = target & GFX9;
  setBits(RSRC1, amdhsa::COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_16_64,
          amdhsa::COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_16_64_SHIFT, amdhsa::FLOAT_DENORM_MODE_FLUSH_NONE);
  if (gfx9) {
    setBits(RSRC1, amdhsa::COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_DX10_CLAMP,
            amdhsa::COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_DX10_CLAMP_SHIFT, 1);
    setBits(RSRC1, amdhsa::COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_IEEE_MODE,
            amdhsa::COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_IEEE_MODE_SHIFT, 1);
    if (sti.checkFeatures("+tgsplit"))
      setBits(RSRC3, amdhsa::COMPUTE_PGM_RSRC3_GFX90A_TG_SPLIT,
              amdhsa::COMPUTE_PGM_RSRC3_GFX90A_TG_SPLIT_SHIFT, 1);
  } else {
    if (sti.checkFeatures("+wavefrontsize32"))
      setBits(KCP, amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32,
              amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32_SHIFT, 1);
    if (!sti.checkFeatures("+cumode"))
      setBits(RSRC1, amdhsa::COMPUTE_PGM_RSRC1_GFX10_PLUS_WGP_MODE,
              amdhsa::COMPUTE_PGM_RSRC1_GFX10_PLUS_WGP_MODE_SHIFT, 1);
    setBits(RSRC1, amdhsa::COMPUTE_PGM_RSRC1_GFX10_PLUS_MEM_ORDERED,
            amdhsa::COMPUTE_PGM_RSRC1_GFX10_PLUS_MEM_ORDERED_SHIFT, 1);
    setBits(RSRC1, amdhsa::COMPUTE_PGM_RSRC1_GFX10_PLUS_FWD_PROGRESS,
            amdhsa::COMPUTE_PGM_RSRC1_GFX10_PLUS_FWD_PROGRESS_SHIFT, 1);
  }
  setBits(RSRC2, amdhsa::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X,
          amdhsa::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X_SHIFT, 1);

  std::optional<int64_t> nextFreeVGPR, nextFreeSGPR, accumOffset, userSGPRCount;
  int64_t preloadLength = 0;
  for (const auto &[name, value] : directives) {
    if (value < 0)
      return fail(name + " is negative");
    if (name == "next_free_vgpr") {
      nextFreeVGPR = value;
    } else if (name == "next_free_sgpr") {
      nextFreeSGPR = value;
    } else if (name == "accum_offset" && gfx9) {
      accumOffset = value;
    } else if ((name == "reserve_vcc" || name == "reserve_xnack_mask") && gfx9) {
      // Architected flat scratch: 6 extra SGPRs whatever these say.
      if (value > 1)
        return fail(name + " is not 0 or 1");
    } else {
      const Field *f = llvm::find_if(kFields, [&](const Field &f) { return name == f.directive; });
      if (f == std::end(kFields) || !(f->targets & target))
        return fail(".amdhsa_" + name + " is not a directive for this target");
      uint32_t mask = f->mask ? (uint32_t)f->mask : ~0u;
      if ((uint64_t)value > (mask >> f->shift))
        return fail(name + " out of range");
      setBits(f->word, mask, f->shift, value);
      if (name == "user_sgpr_count")
        userSGPRCount = value;
      if (name == "user_sgpr_kernarg_preload_length")
        preloadLength = value;
    }
  }
  if (!nextFreeVGPR || !nextFreeSGPR || (gfx9 && !accumOffset))
    return fail("next_free_vgpr, next_free_sgpr (and accum_offset on gfx9) are required");

  // User SGPRs the enabled setup needs; an explicit count may not be less.
  int64_t implied = preloadLength;
  for (const Field &f : kFields)
    if (f.word == KCP && (words[KCP] & (uint32_t)f.mask))
      implied += target::sgprSetupSizeOfDirective(std::string(".amdhsa_") + f.directive);
  if (userSGPRCount && *userSGPRCount < implied)
    return fail("user_sgpr_count smaller than the enabled user SGPRs");
  int64_t users = userSGPRCount.value_or(implied);
  uint32_t userMask = amdhsa::COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT;
  unsigned userShift = amdhsa::COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT_SHIFT;
  if ((uint64_t)users > (userMask >> userShift))
    return fail("too many user SGPRs");
  setBits(RSRC2, userMask, userShift, users);

  // Register counts in granules: VGPRs by 8 (gfx90a+ unified file, wave32),
  // 4 for gfx12 wave64; SGPRs by 8 with the 6 the assembler adds on gfx9
  // (xnack mask, flat scratch); gfx12 stores none.
  auto blocks = [](int64_t n, unsigned granule) {
    return (uint64_t)llvm::divideCeil(std::max<int64_t>(n, 1), granule) - 1;
  };
  bool wave32 = words[KCP] & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32;
  if (*nextFreeVGPR > (gfx9 ? 512 : 256))
    return fail("next_free_vgpr out of range");
  uint64_t vBlocks = blocks(*nextFreeVGPR, gfx9 || wave32 ? 8 : 4);
  uint64_t sBlocks = 0;
  if (gfx9) {
    if (*nextFreeSGPR > 102)
      return fail("next_free_sgpr out of range");
    sBlocks = blocks(*nextFreeSGPR + 6, 8);
    if (*accumOffset < 4 || *accumOffset > 256 || (*accumOffset & 3) ||
        *accumOffset > (int64_t)llvm::alignTo(std::max<int64_t>(*nextFreeVGPR, 1), 4))
      return fail("accum_offset out of range");
    setBits(RSRC3, amdhsa::COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET,
            amdhsa::COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET_SHIFT, *accumOffset / 4 - 1);
  }
  if (vBlocks >= (1u << amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT_WIDTH) ||
      sBlocks >= (1u << amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT_WIDTH))
    return fail("register count out of range");
  setBits(RSRC1, amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT,
          amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT_SHIFT, vBlocks);
  setBits(RSRC1, amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT,
          amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT_SHIFT, sBlocks);

  std::array<uint8_t, 64> kd{};
  for (unsigned w = 0; w < 8; ++w) {
    if (w >= KCP)
      llvm::support::endian::write16le(kd.data() + kWordOffset[w], (uint16_t)words[w]);
    else
      llvm::support::endian::write32le(kd.data() + kWordOffset[w], words[w]);
  }
  return kd;
}

std::vector<std::pair<std::string, int64_t>> descriptorDirectiveValues(DictionaryAttr desc) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (NamedAttribute na : desc)
    if (auto i = dyn_cast<IntegerAttr>(na.getValue()))
      out.push_back({na.getName().getValue().str(), i.getValue().getSExtValue()});
  return out;
}

} // namespace aster::raise
