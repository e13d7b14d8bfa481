//===- KernelMetadata.cpp - kernel descriptor and code-object metadata ---===//
//
// Facts from LLVM's AMDGPUUsage: the `.amdhsa_kernel` directives, the user
// and system SGPR initialisation order, the unified VGPR/AGPR file of gfx90a+
// (accum_offset: first AGPR, multiple of 4), and code-object-v5 metadata.
//
//===----------------------------------------------------------------------===//
#include "target/KernelMetadata.h"
#include "target/raise/KernelRecord.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace aster::amdgcn;

namespace aster::target {

namespace {
struct SetupEntry {
  const char *name;
  unsigned size;
  bool user;
  const char *directive;
};
} // namespace

static const SetupEntry kSetup[] = {
    {"private_segment_buffer", 4, true, ".amdhsa_user_sgpr_private_segment_buffer"},
    {"dispatch_ptr", 2, true, ".amdhsa_user_sgpr_dispatch_ptr"},
    {"queue_ptr", 2, true, ".amdhsa_user_sgpr_queue_ptr"},
    {"kernarg_ptr", 2, true, ".amdhsa_user_sgpr_kernarg_segment_ptr"},
    {"dispatch_id", 2, true, ".amdhsa_user_sgpr_dispatch_id"},
    {"flat_scratch_init", 2, true, ".amdhsa_user_sgpr_flat_scratch_init"},
    {"private_segment_size", 1, true, ".amdhsa_user_sgpr_private_segment_size"},
    {"workgroup_id_x", 1, false, ".amdhsa_system_sgpr_workgroup_id_x"},
    {"workgroup_id_y", 1, false, ".amdhsa_system_sgpr_workgroup_id_y"},
    {"workgroup_id_z", 1, false, ".amdhsa_system_sgpr_workgroup_id_z"},
    {"workgroup_info", 1, false, ".amdhsa_system_sgpr_workgroup_info"},
    {"private_segment_wave_offset", 1, false,
     ".amdhsa_system_sgpr_private_segment_wavefront_offset"},
};

unsigned sgprSetupSize(StringRef name, bool *isUser) {
  for (const SetupEntry &e : kSetup)
    if (name == e.name) {
      if (isUser)
        *isUser = e.user;
      return e.size;
    }
  return 0;
}

static void argLayout(Type t, unsigned &size, std::string &typeName) {
  if (auto p = dyn_cast<PtrType>(t)) {
    size = 8;
    llvm::raw_string_ostream os(typeName);
    os << p.getElementType() << "*";
    return;
  }
  size = t.getIntOrFloatBitWidth() / 8;
  llvm::raw_string_ostream os(typeName);
  os << t;
}

/// A raised kernel: what its descriptor and metadata state about its
/// interface (arguments, kernarg size, LDS, scratch, SGPR setup, workitem
/// ids, workgroup size). Its register counts are aster's own (below).
static void fromRecord(KernelOp k, KernelInfo &info) {
  auto num = [](DictionaryAttr d, StringRef key, int64_t &out) {
    auto a = d ? d.getAs<IntegerAttr>(key) : IntegerAttr();
    if (a)
      out = a.getInt();
    return (bool)a;
  };
  int64_t v;
  if (auto md = k->getAttrOfType<DictionaryAttr>(raise::kMetadataAttr)) {
    if (auto args = md.getAs<ArrayAttr>(".args"))
      for (Attribute a : args) {
        auto d = dyn_cast<DictionaryAttr>(a);
        auto kind = d ? d.getAs<StringAttr>(".value_kind") : StringAttr();
        if (!kind || kind.getValue().starts_with("hidden_"))
          continue;
        KernelInfo::Arg arg;
        if (auto n = d.getAs<StringAttr>(".name"))
          arg.name = n.getValue().str();
        if (auto t = d.getAs<StringAttr>(".type_name"))
          arg.typeName = t.getValue().str();
        arg.offset = num(d, ".offset", v) ? (unsigned)v : 0;
        arg.size = num(d, ".size", v) ? (unsigned)v : 0;
        arg.pointer = kind.getValue() == "global_buffer";
        info.args.push_back(arg);
      }
    if (num(md, ".kernarg_segment_size", v))
      info.kernargSize = (unsigned)v;
    if (num(md, ".wavefront_size", v))
      info.wavefrontSize = (unsigned)v;
    if (auto req = md.getAs<ArrayAttr>(".reqd_workgroup_size"); req && req.size() == 3) {
      for (unsigned i = 0; i < 3; ++i)
        if (auto n = dyn_cast<IntegerAttr>(req[i]))
          info.block[i] = (unsigned)n.getInt();
    } else if (num(md, ".max_flat_workgroup_size", v)) {
      info.block[0] = (unsigned)v;
    }
  }
  auto desc = k->getAttrOfType<DictionaryAttr>(raise::kDescriptorAttr);
  if (!desc)
    return;
  if (num(desc, "group_segment_fixed_size", v))
    info.lds = (unsigned)v;
  if (num(desc, "private_segment_fixed_size", v))
    info.privateSegment = (unsigned)v;
  if (num(desc, "kernarg_size", v))
    info.kernargSize = (unsigned)v;
  if (num(desc, "system_vgpr_workitem_id", v))
    info.workitemIds = (unsigned)v + 1;
  for (const SetupEntry &e : kSetup) {
    StringRef key = StringRef(e.directive).drop_front(strlen(".amdhsa_"));
    if (StringRef(e.name) == "private_segment_wave_offset")
      key = "enable_private_segment";
    if (num(desc, key, v) && v)
      info.sgprSetup.push_back(e.name);
  }
}

KernelInfo analyzeKernel(KernelOp k, uint8_t target) {
  KernelInfo info;
  info.name = k.getSymName().str();
  unsigned off = 0;
  for (unsigned i = 0, e = k.getArgNames().size(); i < e; ++i) {
    KernelInfo::Arg a;
    a.name = cast<StringAttr>(k.getArgNames()[i]).getValue().str();
    Type t = cast<TypeAttr>(k.getArgTypes()[i]).getValue();
    argLayout(t, a.size, a.typeName);
    a.pointer = isa<PtrType>(t);
    a.offset = (unsigned)llvm::alignTo(off, a.size);
    off = a.offset + a.size;
    info.args.push_back(a);
  }
  info.kernargSize = off;
  bool raised = k->hasAttr(raise::kDescriptorAttr) || k->hasAttr(raise::kMetadataAttr);
  if (raised)
    fromRecord(k, info);
  if (auto lds = k->getAttrOfType<IntegerAttr>("lds"))
    info.lds = lds.getInt();
  if (auto p = k->getAttrOfType<IntegerAttr>("private_segment"))
    info.privateSegment = p.getInt();
  if (auto w = k->getAttrOfType<IntegerAttr>("workitem_ids"))
    info.workitemIds = w.getInt();
  if (auto b = k->getAttrOfType<DenseI32ArrayAttr>("block"))
    for (unsigned i = 0; i < 3; ++i)
      info.block[i] = b[i];
  info.wavefrontSize = ISA::targetWaveSize(target);
  if (auto s = k->getAttrOfType<ArrayAttr>("sgpr_setup")) {
    for (Attribute a : s)
      info.sgprSetup.push_back(cast<StringAttr>(a).getValue().str());
  } else if (!raised) {
    if (!info.args.empty())
      info.sgprSetup.push_back("kernarg_ptr");
    info.sgprSetup.push_back("workgroup_id_x");
  }
  unsigned setupSGPRs = 0;
  for (const std::string &s : info.sgprSetup) {
    bool user = false;
    unsigned n = sgprSetupSize(s, &user);
    setupSGPRs += n;
    if (user)
      info.userSGPRs += n;
  }
  // A raised descriptor counts preloaded kernel arguments too.
  if (auto d = k->getAttrOfType<DictionaryAttr>(raise::kDescriptorAttr))
    if (auto n = d.getAs<IntegerAttr>("user_sgpr_count"))
      info.userSGPRs = (unsigned)n.getInt();
  // Registers named anywhere in the kernel.
  int maxV = -1, maxS = -1, maxA = -1;
  auto note = [&](Type t) {
    auto r = dyn_cast<RegType>(t);
    if (!r || r.isVirtual())
      return;
    int last = r.getIndex() + (int)r.getWidth() - 1;
    int &m = r.getKind() == RegKind::VGPR   ? maxV
             : r.getKind() == RegKind::SGPR ? maxS
                                            : maxA;
    m = std::max(m, last);
  };
  // Every operand is an op result or a block argument: their types are all
  // the registers named. Runs of one type (an unrolled chain) count once.
  Type last;
  auto noteNew = [&](Type t) {
    if (t != last)
      note(t);
    last = t;
  };
  k.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      noteNew(t);
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          noteNew(a.getType());
  });
  unsigned arch = std::max<unsigned>(maxV + 1, 1);
  info.numAGPR = maxA + 1;
  info.nextFreeSGPR = std::max<unsigned>(maxS + 1, setupSGPRs);
  if (target == ISA::T_GFX1201) {
    info.accumOffset = 0;
    info.nextFreeVGPR = arch;
  } else {
    info.accumOffset = (unsigned)llvm::alignTo(arch, 4);
    info.nextFreeVGPR = info.numAGPR ? info.accumOffset + info.numAGPR : arch;
  }
  return info;
}

void writeKernelDescriptor(const KernelInfo &k, uint8_t target,
                           raw_ostream &os) {
  os << "\t.rodata\n\t.p2align\t6\n\t.amdhsa_kernel " << k.name << "\n";
  auto d = [&](StringRef name, int64_t v) {
    os << "\t\t" << name << " " << v << "\n";
  };
  d(".amdhsa_group_segment_fixed_size", k.lds);
  d(".amdhsa_private_segment_fixed_size", k.privateSegment);
  d(".amdhsa_kernarg_size", k.kernargSize);
  d(".amdhsa_user_sgpr_count", k.userSGPRs);
  for (const SetupEntry &e : kSetup) {
    bool on = llvm::is_contained(k.sgprSetup, e.name);
    if (StringRef(e.name) == "private_segment_wave_offset")
      // gfx942, gfx950 and gfx12 have architected flat scratch.
      d(".amdhsa_enable_private_segment", on || k.privateSegment > 0);
    else if (StringRef(e.name) == "workgroup_id_x" || on)
      d(e.directive, on);
  }
  d(".amdhsa_system_vgpr_workitem_id", k.workitemIds - 1);
  d(".amdhsa_next_free_vgpr", k.nextFreeVGPR);
  d(".amdhsa_next_free_sgpr", k.nextFreeSGPR);
  if (target != ISA::T_GFX1201)
    d(".amdhsa_accum_offset", k.accumOffset);
  if (k.wavefrontSize == 32)
    d(".amdhsa_wavefront_size32", 1);
  os << "\t.end_amdhsa_kernel\n\t.text\n\n";
}

void writeMetadata(ArrayRef<KernelInfo> kernels, StringRef target,
                   raw_ostream &os) {
  os << "\t.amdgpu_metadata\n---\namdhsa.kernels:\n";
  for (const KernelInfo &k : kernels) {
    os << "  - .agpr_count: " << k.numAGPR << "\n";
    os << "    .args:\n";
    if (k.args.empty())
      os << "      []\n";
    for (const KernelInfo::Arg &a : k.args) {
      os << "      - ";
      if (a.pointer)
        os << ".address_space: global\n        ";
      os << ".name: " << a.name << "\n        .offset: " << a.offset
         << "\n        .size: " << a.size << "\n        .type_name: '"
         << a.typeName << "'\n        .value_kind: "
         << (a.pointer ? "global_buffer" : "by_value") << "\n";
    }
    os << "    .group_segment_fixed_size: " << k.lds << "\n";
    os << "    .kernarg_segment_align: 8\n";
    os << "    .kernarg_segment_size: " << k.kernargSize << "\n";
    os << "    .max_flat_workgroup_size: "
       << k.block[0] * k.block[1] * k.block[2] << "\n";
    os << "    .name: " << k.name << "\n";
    os << "    .private_segment_fixed_size: " << k.privateSegment << "\n";
    os << "    .sgpr_count: " << k.nextFreeSGPR + 2 << "\n";
    os << "    .symbol: " << k.name << ".kd\n";
    os << "    .vgpr_count: " << k.nextFreeVGPR << "\n";
    os << "    .wavefront_size: " << k.wavefrontSize << "\n";
  }
  os << "amdhsa.target: amdgcn-amd-amdhsa--" << target << "\n";
  os << "amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n";
}

} // namespace aster::target
