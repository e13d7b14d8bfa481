//===- RaiseCommon.cpp - the module both raisers fill in -----------------===//
#include "target/raise/RaiseCommon.h"
#include "target/raise/KernelRecord.h"

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;
using llvm::StringRef;

namespace aster::raise {

RaisedModule::RaisedModule(MLIRContext *ctx, StringRef target, Location loc) : ctx(ctx) {
  top = ModuleOp::create(loc);
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(top->getBody());
  module = KernelModuleOp::create(b, loc, "raised", target);
  module.getBody().push_back(new Block());
}

KernelOp RaisedModule::addKernel(StringRef name, Location loc) {
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(&module.getBody().front());
  auto k = KernelOp::create(b, loc, name, b.getArrayAttr({}), b.getArrayAttr({}));
  k.getBody().push_back(new Block());
  kernels.push_back(k);
  return k;
}

DeviceFunctionOp RaisedModule::addDeviceFunction(StringRef name, Location loc,
                                                 unsigned p2align) {
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(&module.getBody().front());
  auto f = DeviceFunctionOp::create(b, loc, name, b.getI32IntegerAttr(p2align));
  f.getBody().push_back(new Block());
  return f;
}

void RaisedModule::setDescriptor(StringRef kernel, DictionaryAttr d) {
  descriptors[kernel] = d;
}

void RaisedModule::setCodeObjectVersion(int64_t v) {
  module->setAttr(kCodeObjectVersionAttr,
                  IntegerAttr::get(IntegerType::get(ctx, 32), v));
}

void RaisedModule::setTextTail(StringRef lines) {
  module->setAttr(kTextTailAttr, StringAttr::get(ctx, lines));
}

/// What a kernel's metadata must hold for aster (and launchers) to use it:
/// arguments with an offset, a size and a value kind.
static std::optional<std::string> checkKernelMetadata(DictionaryAttr d) {
  Attribute argsAttr = d.get(".args");
  if (!argsAttr)
    return std::nullopt; // no arguments
  auto args = dyn_cast<ArrayAttr>(argsAttr);
  if (!args)
    return std::string(".args is not a list");
  for (auto [i, a] : llvm::enumerate(args)) {
    auto m = dyn_cast<DictionaryAttr>(a);
    if (!m)
      return "argument " + std::to_string(i) + " is not a map";
    auto off = m.getAs<IntegerAttr>(".offset");
    auto size = m.getAs<IntegerAttr>(".size");
    if (!off || !size || off.getInt() < 0 || size.getInt() <= 0)
      return "argument " + std::to_string(i) + " has no valid .offset and .size";
    if (!m.getAs<StringAttr>(".value_kind"))
      return "argument " + std::to_string(i) + " has no .value_kind";
  }
  return std::nullopt;
}

/// An upper bound of the nesting of YAML text: per line, its indentation,
/// its `- ` markers and the flow brackets open (outside quotes). LLVM's YAML reader recurses per level: deep input would
/// overflow the stack.
static size_t yamlNestingBound(StringRef yaml) {
  size_t most = 0, brackets = 0;
  SmallVector<StringRef> lines;
  yaml.split(lines, '\n');
  for (StringRef l : lines) {
    size_t indent = l.find_first_not_of(" \t");
    if (indent == StringRef::npos)
      continue;
    StringRef rest = l.drop_front(indent);
    size_t dashes = 0;
    char quote = 0;
    for (size_t i = 0; i < rest.size(); ++i) {
      char c = rest[i];
      if (quote) {
        quote = c == quote ? 0 : quote;
        continue;
      }
      if (c == '"' || c == '\'')
        quote = c;
      else if (c == '-' && (i + 1 == rest.size() || rest[i + 1] == ' ' || rest[i + 1] == '\t'))
        ++dashes; // a block sequence entry (or a lone minus: counted anyway)
      else if (c == '[' || c == '{')
        most = std::max(most, indent + dashes + ++brackets);
      else if ((c == ']' || c == '}') && brackets)
        --brackets;
    }
    most = std::max(most, indent + dashes + brackets);
  }
  return most;
}

llvm::Error RaisedModule::setMetadataYAML(StringRef yaml) {
  if (yamlNestingBound(yaml) > 512)
    return llvm::createStringError("the .amdgpu_metadata YAML nests too deep");
  llvm::msgpack::Document doc;
  if (!doc.fromYAML(yaml))
    return llvm::createStringError("cannot read the .amdgpu_metadata YAML");
  return setMetadata(doc);
}

llvm::Error RaisedModule::setMetadata(llvm::msgpack::Document &doc) {
  if (!doc.getRoot().isMap())
    return llvm::createStringError("the metadata is not a map");
  sawMetadata = true;
  SmallVector<NamedAttribute> rest;
  for (auto &kv : doc.getRoot().getMap()) {
    if (!kv.first.isString())
      continue;
    StringRef key = kv.first.getString();
    if (key == "amdhsa.kernels" && kv.second.isArray()) {
      for (auto &k : kv.second.getArray()) {
        auto d = dyn_cast<DictionaryAttr>(msgpackToAttr(ctx, k));
        auto name = d ? d.getAs<StringAttr>(".name") : StringAttr();
        if (!name)
          return llvm::createStringError("a kernel's metadata has no .name");
        if (auto err = checkKernelMetadata(d))
          return llvm::createStringError("metadata of kernel '" + name.getValue().str() +
                                         "': " + *err);
        metadata[name.getValue()] = d;
      }
      continue;
    }
    rest.push_back(NamedAttribute(StringAttr::get(ctx, key), msgpackToAttr(ctx, kv.second)));
  }
  module->setAttr(kMetadataAttr, DictionaryAttr::get(ctx, rest));
  return llvm::Error::success();
}

Location pcLocation(StringAttr source, uint64_t pc) {
  return FileLineColLoc::get(source, 0, (unsigned)pc);
}

std::optional<uint64_t> pcOfLocation(Location loc) {
  auto fl = dyn_cast<FileLineColLoc>(loc);
  if (!fl || fl.getLine() != 0 || fl.getColumn() == 0)
    return std::nullopt;
  return fl.getColumn();
}

llvm::Expected<OwningOpRef<ModuleOp>> RaisedModule::finish(std::vector<std::string> &errors) {
  for (KernelOp k : kernels) {
    StringRef name = k.getSymName();
    auto d = descriptors.find(name);
    if (d != descriptors.end())
      k->setAttr(kDescriptorAttr, d->second);
    auto m = metadata.find(name);
    if (m != metadata.end())
      k->setAttr(kMetadataAttr, m->second);
    else if (sawMetadata)
      errors.push_back("kernel '" + name.str() + "' has no entry in the metadata");
    if (d == descriptors.end() && sawMetadata)
      errors.push_back("kernel '" + name.str() + "' has no kernel descriptor");
  }
  // Globals and the symbols relocation operands name (instructions were
  // verified as they were read).
  {
    ScopedDiagnosticHandler collect(ctx, [&](Diagnostic &d) {
      errors.push_back(d.str());
      return success();
    });
    SymbolTable symbols(module);
    for (Operation &op : module.getBody().front()) {
      if (auto g = dyn_cast<GlobalOp>(op)) {
        (void)g.verify();
        continue;
      }
      if (!isa<KernelOp, DeviceFunctionOp>(op) || op.getRegion(0).empty())
        continue;
      for (Operation &inner : op.getRegion(0).front())
        if (auto r = dyn_cast<RelocOp>(inner))
          if (!symbols.lookup(r.getSymbol()))
            errors.push_back(SymbolTable::getSymbolName(&op).str() + ": " + r.asmText() +
                             " names a symbol the code defines nowhere (external "
                             "symbols are not raised)");
    }
  }
  if (!errors.empty()) {
    std::string msg;
    const size_t kMax = 20;
    for (size_t i = 0; i < errors.size() && i < kMax; ++i)
      msg += (i ? "\n" : "") + errors[i];
    if (errors.size() > kMax)
      msg += "\n... and " + std::to_string(errors.size() - kMax) + " more";
    return llvm::createStringError(msg);
  }
  return std::move(top);
}

} // namespace aster::raise
