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
namespace msgpack = llvm::msgpack;

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
  // `arg_type_names` (optional, one string per argument, "" for the
  // default): the metadata's .type_name, e.g. the memref type a lowered
  // kernel's argument came from (amdgcn-lower, aster.lowering.signature).
  auto typeNames = k->getAttrOfType<ArrayAttr>("arg_type_names");
  for (unsigned i = 0, e = k.getArgNames().size(); i < e; ++i) {
    KernelInfo::Arg a;
    a.name = cast<StringAttr>(k.getArgNames()[i]).getValue().str();
    Type t = cast<TypeAttr>(k.getArgTypes()[i]).getValue();
    argLayout(t, a.size, a.typeName);
    if (typeNames && i < typeNames.size())
      if (auto s = dyn_cast<StringAttr>(typeNames[i]); s && !s.getValue().empty())
        a.typeName = s.getValue().str();
    // An argument named hidden_* is that hidden argument (the launcher fills it).
    a.hidden = StringRef(a.name).starts_with("hidden_");
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
  info.dynamicStack = k->hasAttr("dynamic_stack");
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

unsigned sgprSetupSizeOfDirective(StringRef directive) {
  for (const SetupEntry &e : kSetup)
    if (directive == e.directive)
      return e.size;
  return 0;
}

std::vector<std::pair<std::string, int64_t>> descriptorDirectives(const KernelInfo &k,
                                                                  uint8_t target) {
  std::vector<std::pair<std::string, int64_t>> out;
  auto d = [&](StringRef name, int64_t v) {
    out.push_back({name.drop_front(strlen(".amdhsa_")).str(), v});
  };
  d(".amdhsa_group_segment_fixed_size", k.lds);
  d(".amdhsa_private_segment_fixed_size", k.privateSegment);
  d(".amdhsa_kernarg_size", k.kernargSize);
  d(".amdhsa_user_sgpr_count", k.userSGPRs);
  for (const SetupEntry &e : kSetup) {
    bool on = llvm::is_contained(k.sgprSetup, e.name);
    if (StringRef(e.name) == "private_segment_wave_offset")
      // gfx942, gfx950 and gfx12 have architected flat scratch.
      d(".amdhsa_enable_private_segment", on || k.privateSegment > 0 || k.dynamicStack);
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
  return out;
}

void writeDescriptorText(StringRef kernel,
                         ArrayRef<std::pair<std::string, int64_t>> directives,
                         raw_ostream &os) {
  os << "\t.rodata\n\t.p2align\t6\n\t.amdhsa_kernel " << kernel << "\n";
  for (const auto &[name, v] : directives)
    os << "\t\t.amdhsa_" << name << " " << v << "\n";
  os << "\t.end_amdhsa_kernel\n\t.text\n\n";
}

void writeKernelDescriptor(const KernelInfo &k, uint8_t target, raw_ostream &os) {
  writeDescriptorText(k.name, descriptorDirectives(k, target), os);
}

msgpack::DocNode kernelMetadata(msgpack::Document &doc, const KernelInfo &k) {
  auto str = [&](StringRef s) { return doc.getNode(s, /*Copy=*/true); };
  auto num = [&](uint64_t v) { return doc.getNode(v); };
  msgpack::MapDocNode m = doc.getMapNode();
  m[".agpr_count"] = num(k.numAGPR);
  msgpack::ArrayDocNode args = doc.getArrayNode();
  for (const KernelInfo::Arg &a : k.args) {
    msgpack::MapDocNode am = doc.getMapNode();
    if (a.pointer)
      am[".address_space"] = str("global");
    am[".name"] = str(a.name);
    am[".offset"] = num(a.offset);
    am[".size"] = num(a.size);
    am[".type_name"] = str(a.typeName);
    am[".value_kind"] = str(a.hidden ? a.name : a.pointer ? "global_buffer" : "by_value");
    args.push_back(am);
  }
  m[".args"] = args;
  m[".group_segment_fixed_size"] = num(k.lds);
  m[".kernarg_segment_align"] = num(8);
  m[".kernarg_segment_size"] = num(k.kernargSize);
  m[".max_flat_workgroup_size"] = num((uint64_t)k.block[0] * k.block[1] * k.block[2]);
  m[".name"] = str(k.name);
  m[".private_segment_fixed_size"] = num(k.privateSegment);
  if (k.dynamicStack) // AMDGPUUsage "Code Object V3+ Metadata": .uses_dynamic_stack
    m[".uses_dynamic_stack"] = doc.getNode(true);
  m[".sgpr_count"] = num(k.nextFreeSGPR + 2);
  m[".symbol"] = str(k.name + ".kd");
  m[".vgpr_count"] = num(k.nextFreeVGPR);
  m[".wavefront_size"] = num(k.wavefrontSize);
  return m;
}

void moduleMetadata(msgpack::Document &doc, msgpack::ArrayDocNode kernels, StringRef target) {
  msgpack::MapDocNode root = doc.getRoot().getMap(/*Convert=*/true);
  root["amdhsa.kernels"] = kernels;
  root["amdhsa.target"] = doc.getNode(("amdgcn-amd-amdhsa--" + target).str(), true);
  msgpack::ArrayDocNode version = doc.getArrayNode();
  version.push_back(doc.getNode(uint64_t(1)));
  version.push_back(doc.getNode(uint64_t(2)));
  root["amdhsa.version"] = version;
}

namespace {
/// A string YAML reads back as this string (else it is quoted).
bool plainYAML(StringRef s) {
  if (s.empty() || !(isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '.') ||
      llvm::is_contained({"true", "false", "null", "yes", "no", "on", "off"}, s.lower()))
    return false;
  return llvm::all_of(s, [](char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-'; });
}

/// aster's YAML layout of a metadata document: one `key: value` per line,
/// lists as `- ` items, two spaces per level.
void writeYAML(const msgpack::DocNode &n, unsigned indent, bool inItem, raw_ostream &os) {
  std::string pad(indent, ' ');
  auto scalar = [&](const msgpack::DocNode &v) {
    if (v.getKind() == msgpack::Type::String && !plainYAML(v.getString())) {
      os << "'";
      for (char c : v.getString())
        os << (c == '\'' ? "''" : StringRef(&c, 1));
      os << "'";
    } else {
      os << v.toString();
    }
  };
  auto &node = const_cast<msgpack::DocNode &>(n);
  if (node.isMap()) {
    bool first = true;
    for (auto &[k, v] : node.getMap()) {
      if (!(first && inItem))
        os << pad;
      first = false;
      os << k.toString() << ":";
      if (v.isMap() || v.isArray()) {
        os << "\n";
        writeYAML(v, indent + 2, false, os);
      } else {
        os << " ";
        scalar(v);
        os << "\n";
      }
    }
  } else if (node.isArray()) {
    if (node.getArray().empty())
      os << pad << "[]\n";
    for (auto &v : node.getArray()) {
      os << pad << "- ";
      if (v.isMap() || v.isArray()) {
        writeYAML(v, indent + 2, true, os);
      } else {
        scalar(v);
        os << "\n";
      }
    }
  }
}
} // namespace

void writeMetadata(ArrayRef<KernelInfo> kernels, StringRef target, raw_ostream &os) {
  msgpack::Document doc;
  msgpack::ArrayDocNode list = doc.getArrayNode();
  for (const KernelInfo &k : kernels)
    list.push_back(kernelMetadata(doc, k));
  moduleMetadata(doc, list, target);
  os << "\t.amdgpu_metadata\n---\n";
  writeYAML(doc.getRoot(), 0, false, os);
  os << "...\n\t.end_amdgpu_metadata\n";
}

} // namespace aster::target
