//===- RaiseAsm.cpp - assembler text into amdgcn IR ----------------------===//
//
// The text is first read by LLVM MC (AsmExpand.h): macros, repeats,
// conditionals, symbols and includes are expanded as llvm-mc does, and every
// statement comes back as LLVM prints it, with its origin (the source line,
// and the macro calls that made it); on text without such constructs, the
// plain instruction lines skip MC (AsmPlainLines.h), and a text the fast
// path does not take whole is read again through MC. Then a line-oriented reader of that
// text: `.text` code between a function label and `.Lfunc_end*` (or the
// next function) is a kernel; `.amdhsa_kernel` blocks give descriptors,
// `.amdgpu_metadata` the metadata (YAML, read with LLVM's msgpack document).
// Directives that do not change the code (`.globl`, `.size`, `.set`, ...)
// are dropped; data and alignment inside code are kept as amdgcn.data.
// Locations and messages name the origin of each line.
//
//===----------------------------------------------------------------------===//
#include "target/raise/AsmExpand.h"
#include "target/raise/AsmPlainLines.h"
#include "target/raise/DataSections.h"
#include "target/raise/KernelBody.h"
#include "target/raise/KernelRecord.h"
#include "target/raise/Raise.h"
#include "target/raise/RaiseCommon.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;
using llvm::StringRef;

namespace aster::raise {

/// Cuts a `;` or `//` comment outside double quotes.
static StringRef stripComment(StringRef line) {
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '"')
      quoted = !quoted;
    else if (!quoted && (c == ';' || (c == '/' && i + 1 < line.size() && line[i + 1] == '/')))
      return line.take_front(i);
  }
  return line;
}

static bool isDataDirective(StringRef d) {
  return llvm::StringSwitch<bool>(d)
      .Cases({".long", ".word", ".4byte", ".int"}, true)
      .Default(false);
}
static bool isLayoutDirective(StringRef d) {
  return llvm::StringSwitch<bool>(d)
      .Cases({".p2align", ".p2alignl", ".p2alignw", ".align", ".balign", ".balignl", ".fill",
              ".space", ".zero", ".byte", ".short", ".2byte", ".quad", ".8byte"},
             true)
      .Default(false);
}

static llvm::Expected<OwningOpRef<ModuleOp>> readExpanded(MLIRContext *ctx, StringRef tgt,
                                                         uint8_t bit, const RaiseOptions &opts,
                                                         const ExpandedAsm &expanded);

llvm::Expected<OwningOpRef<ModuleOp>> raiseAsm(MLIRContext *ctx, StringRef text,
                                               StringRef target, const RaiseOptions &opts) {
  ctx->loadDialect<AMDGCNDialect, cf::ControlFlowDialect, arith::ArithDialect>();
  StringAttr file = StringAttr::get(ctx, opts.sourceName);

  // The target: the argument, else `.amdgcn_target` (whose features, such
  // as `:sramecc+:xnack-`, MC needs to accept the directive).
  std::string tgt = target.str(), features;
  {
    SmallVector<StringRef> raw;
    text.split(raw, '\n');
    for (StringRef l : raw) {
      StringRef t = stripComment(l).trim();
      if (t.consume_front(".amdgcn_target")) {
        StringRef id = t.trim().trim('"');
        id.consume_front("amdgcn-amd-amdhsa--");
        auto [proc, feats] = id.split(':');
        if (tgt.empty())
          tgt = proc.str();
        if (proc == tgt)
          features = feats.str();
        break;
      }
    }
  }
  if (tgt.empty())
    return llvm::createStringError(
        "no target: pass one (gfx942, gfx950, gfx1201) or put .amdgcn_target in the text");
  uint8_t bit = ISA::targetBit(tgt);
  if (!bit)
    return llvm::createStringError("unknown target '" + tgt + "'");

  ExpandOptions xo;
  xo.sourceName = opts.sourceName;
  xo.includeDirs = opts.includeDirs;
  if (xo.includeDirs.empty()) {
    StringRef dir = llvm::sys::path::parent_path(opts.sourceName);
    if (!dir.empty())
      xo.includeDirs.push_back(dir.str());
  }
  // Metadata blocks are read by aster first, as written: its reasons are
  // more precise than MC's "invalid HSA metadata", and its nesting bound
  // keeps YAML too deep for LLVM's reader from reaching MC.
  {
    SmallVector<StringRef> raw;
    text.split(raw, '\n');
    std::string yaml;
    bool inBlock = false;
    for (unsigned i = 0; i < raw.size(); ++i) {
      StringRef t = raw[i].trim();
      if (!inBlock && stripComment(raw[i]).trim() == ".amdgpu_metadata") {
        inBlock = true;
        yaml.clear();
      } else if (inBlock && t == ".end_amdgpu_metadata") {
        inBlock = false;
        RaisedModule scratch(ctx, tgt, FileLineColLoc::get(file, 1, 1));
        if (auto err = scratch.setMetadataYAML(yaml))
          return llvm::createStringError(opts.sourceName + ":" + std::to_string(i + 1) + ": " +
                                         llvm::toString(std::move(err)));
        std::vector<std::string> unused;
        (void)scratch.finish(unused);
      } else if (inBlock) {
        yaml += raw[i].str() + "\n";
      }
    }
  }
  // The fast path first (AsmPlainLines.h): MC reads all but the plain
  // instruction lines. Whatever it does not take (an MC error, a line the
  // reader rejects) is read again through MC whole, so messages and results
  // are those of the full path.
  if (std::optional<PlainSplit> split = splitPlainLines(text)) {
    auto printed = expandAsm(ctx, split->reduced, tgt, features, xo);
    if (printed) {
      ExpandedAsm merged = mergePlainLines(ctx, std::move(*printed), *split, opts.sourceName);
      auto fast = readExpanded(ctx, tgt, bit, opts, merged);
      if (fast)
        return fast;
      llvm::consumeError(fast.takeError());
    } else {
      llvm::consumeError(printed.takeError());
    }
  }
  auto expanded = expandAsm(ctx, text, tgt, features, xo);
  if (!expanded)
    return expanded.takeError();
  return readExpanded(ctx, tgt, bit, opts, *expanded);
}

/// The line reader of MC's printed text (see the file's header).
static llvm::Expected<OwningOpRef<ModuleOp>> readExpanded(MLIRContext *ctx, StringRef tgt,
                                                         uint8_t bit, const RaiseOptions &opts,
                                                         const ExpandedAsm &expandedText) {
  const ExpandedAsm *expanded = &expandedText;
  std::vector<std::string> errors;
  StringAttr file = StringAttr::get(ctx, opts.sourceName);
  SmallVector<StringRef> lines;
  StringRef(expanded->text).split(lines, '\n');
  auto locOf = [&](unsigned i) -> Location {
    return i < expanded->lines.size() ? expanded->lines[i].loc
                                      : FileLineColLoc::get(file, 0, 1);
  };
  auto where = [&](unsigned i) {
    return i < expanded->lines.size() ? expanded->lines[i].where : opts.sourceName;
  };

  RaisedModule rm(ctx, tgt, FileLineColLoc::get(file, 1, 1));
  InstParser parser(ctx, bit);
  // Functions, and which of them are kernels (those with a descriptor);
  // with no descriptor at all, every function is a kernel.
  llvm::StringSet<> functions, kernelNames;
  for (StringRef l : lines) {
    StringRef t = stripComment(l).trim();
    if (t.consume_front(".type")) {
      auto [name, kind] = t.split(',');
      if (kind.trim() == "@function")
        functions.insert(name.trim());
    } else if (t.consume_front(".amdhsa_kernel")) {
      kernelNames.insert(t.trim());
    }
  }
  AsmData data(ctx);
  unsigned functionP2align = 2; // the last `.p2align` between functions

  std::unique_ptr<KernelBody> body;
  Operation *kernel = nullptr;
  unsigned kernelLine = 0;
  bool inText = true;
  std::string descName, yaml;
  SmallVector<NamedAttribute> desc;
  bool inDesc = false, inMeta = false;
  std::string tail;
  auto endKernel = [&]() {
    if (body)
      body->finish(where(kernelLine) + " (" +
                   (isa<KernelOp>(kernel) ? "kernel " : "device function ") +
                   SymbolTable::getSymbolName(kernel).str() + ")");
    body.reset();
  };

  for (unsigned i = 0; i < lines.size(); ++i) {
    StringRef raw = lines[i];
    if (inMeta) {
      if (raw.trim() == ".end_amdgpu_metadata") {
        inMeta = false;
        if (auto err = rm.setMetadataYAML(yaml))
          errors.push_back(where(i) + ": " + llvm::toString(std::move(err)));
      } else {
        yaml += raw.str() + "\n";
      }
      continue;
    }
    StringRef t = stripComment(raw).trim();
    if (t.empty())
      continue;
    if (inDesc) {
      if (t == ".end_amdhsa_kernel") {
        inDesc = false;
        rm.setDescriptor(descName, DictionaryAttr::get(ctx, desc));
        continue;
      }
      StringRef name = t, value;
      std::tie(name, value) = t.split(' ');
      int64_t v;
      if (!name.consume_front(".amdhsa_") || !parseAsmInteger(value.trim(), v)) {
        errors.push_back(where(i) + ": expected `.amdhsa_<field> <integer>`, got '" +
                         t.str() + "'");
        continue;
      }
      desc.push_back(NamedAttribute(StringAttr::get(ctx, name),
                                    IntegerAttr::get(IntegerType::get(ctx, 64), v)));
      continue;
    }
    // Labels (a line may hold only the label).
    if (t.ends_with(":") && !t.contains(' ') && !t.contains('\t')) {
      StringRef name = t.drop_back();
      if (!inText) {
        data.label(name, locOf(i));
        continue;
      }
      if (name.starts_with(".Lfunc_end") || name.starts_with(".Ldf_end")) {
        endKernel();
        continue;
      }
      bool isFunction = functions.contains(name) || (!name.starts_with(".L") && !body);
      if (isFunction) {
        endKernel();
        tail.clear(); // alignment before a kernel: translation writes its own
        if (kernelNames.empty() || kernelNames.contains(name))
          kernel = rm.addKernel(name, locOf(i));
        else
          kernel = rm.addDeviceFunction(name, locOf(i), functionP2align);
        functionP2align = 2;
        kernelLine = i;
        body = std::make_unique<KernelBody>(kernel, parser, opts.keepUnknown, errors);
        continue;
      }
      if (body)
        body->label(name, locOf(i));
      continue;
    }
    if (t.starts_with(".")) {
      auto [dir, args] = t.split(' ');
      std::tie(dir, std::ignore) = dir.split('\t');
      args = t.drop_front(dir.size()).trim();
      if (dir == ".globl" || dir == ".protected" || dir == ".hidden" || dir == ".size") {
        data.symbolDirective(dir, args);
        continue;
      }
      if (dir == ".type" || dir == ".set" || dir == ".ident" || dir == ".addrsig" ||
          dir == ".addrsig_sym" || dir == ".no_dead_strip" || dir == ".amdgcn_target")
        continue;
      if (dir == ".amdhsa_code_object_version") {
        int64_t v;
        if (parseAsmInteger(args, v))
          rm.setCodeObjectVersion(v);
      } else if (dir == ".text") {
        inText = true;
        data.section("");
      } else if (dir == ".section" || dir == ".rodata" || dir == ".data" || dir == ".bss") {
        StringRef sec = dir == ".section" ? args.split(',').first.trim() : dir;
        inText = sec == ".text";
        data.section(inText ? "" : sec);
      } else if (dir == ".amdhsa_kernel") {
        inDesc = true;
        descName = args.str();
        desc.clear();
      } else if (dir == ".amdgpu_metadata") {
        inMeta = true;
        yaml.clear();
      } else if (inText && body && isDataDirective(dir)) {
        SmallVector<int32_t> words;
        SmallVector<StringRef> vals;
        args.split(vals, ',');
        bool ok = true;
        for (StringRef v : vals) {
          int64_t x;
          ok &= parseAsmInteger(v.trim(), x);
          words.push_back((int32_t)x);
        }
        if (ok)
          body->data(words, "", locOf(i));
        else
          body->data({}, t, locOf(i));
      } else if (inText && body && isLayoutDirective(dir)) {
        body->data({}, t, locOf(i));
      } else if (!inText) {
        std::string err;
        if (!data.directive(dir, args, err))
          errors.push_back(where(i) + ": " + err);
      } else if (inText && !body && (isLayoutDirective(dir) || isDataDirective(dir))) {
        if (dir == ".p2align") {
          int64_t p;
          if (parseAsmInteger(args.split(',').first.trim(), p) && p >= 0 && p <= 8)
            functionP2align = p;
        }
        // Code-end padding after the kernels (`.p2alignl`, `.fill`).
        if (!rm.hasKernels())
          continue; // alignment before the first kernel: translation writes its own
        tail += "\t" + t.str() + "\n";
      }
      continue;
    }
    if (!inText)
      continue;
    if (!body) {
      errors.push_back(where(i) + ": instruction outside a kernel: " + t.str());
      continue;
    }
    body->inst(t, locOf(i), [&] { return where(i); });
  }
  endKernel();
  if (inDesc)
    errors.push_back(opts.sourceName + ": .amdhsa_kernel " + descName +
                     " has no .end_amdhsa_kernel");
  if (inMeta)
    errors.push_back(opts.sourceName + ": .amdgpu_metadata has no .end_amdgpu_metadata");
  if (!tail.empty())
    rm.setTextTail(tail);
  data.finish(rm);
  return rm.finish(errors);
}

} // namespace aster::raise
