//===- Assembler.cpp - assembly to object (LLVM MC) and hsaco (lld) ------===//
//
// Objects are written by LLVM MC into memory with the process's MC objects
// for the target (MCTarget::get); Linker.cpp links them with lld.
//
//===----------------------------------------------------------------------===//
#include "target/Assembler.h"
#include "recovery/Recovery.h"
#include "target/AlignDirectives.h"
#include "target/AsmLexCheck.h"
#include "target/AsmSizeCheck.h"
#include "target/LayoutCheck.h"
#include "target/MCTarget.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCELFObjectWriter.h"
#include "llvm/MC/MCELFStreamer.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectStreamer.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

namespace aster::target {

namespace {
/// The object file info of a directly streamed object: only the text
/// section (the streamer's first section, MCELFStreamer::initSections).
/// LLVM's full one (initMCObjectFileInfo) creates some hundred sections
/// (DWARF, EH frames, ...) per object, a third of a small object's cost;
/// the direct object names the sections it fills itself (DirectObject.cpp),
/// the ELF writer its own (.symtab, .strtab, .rela.*), and an unused
/// section leaves no trace in the object (sections and their symbols are
/// written when first switched to). tests/py/test_direct_emit.py and the
/// suite's ASTER_CHECK_DIRECT compare the bytes with the assembler's.
struct TextOnlyObjectFileInfo : MCObjectFileInfo {
  explicit TextOnlyObjectFileInfo(MCContext &ctx) {
    TextSection = ctx.getELFSection(".text", ELF::SHT_PROGBITS,
                                    ELF::SHF_EXECINSTR | ELF::SHF_ALLOC);
  }
};

/// An ELF object being written by LLVM MC: its bytes, object file info and
/// object streamer.
struct ObjectSink {
  SmallVector<char, 0> buffer;
  raw_svector_ostream os{buffer};
  std::unique_ptr<MCObjectFileInfo> mofi;
  std::unique_ptr<MCStreamer> streamer;

  /// Sets up `ctx` and the streamer. With `targetStreamer`, the AMDGPU
  /// target streamer is attached (what the assembler's directives use; it
  /// sets the ELF header flags when the object is finished).
  /// Without it, the object file info holds the text section only
  /// (TextOnlyObjectFileInfo): the direct path.
  Error open(const MCTarget &t, MCContext &ctx, bool targetStreamer) {
    if (targetStreamer)
      mofi.reset(t.target->createMCObjectFileInfo(ctx, /*PIC=*/true));
    else
      mofi = std::make_unique<TextOnlyObjectFileInfo>(ctx);
    ctx.setObjectFileInfo(mofi.get());
    std::unique_ptr<MCCodeEmitter> ce(t.target->createMCCodeEmitter(*t.mii, ctx));
    std::unique_ptr<MCAsmBackend> mab(
        t.target->createMCAsmBackend(*t.sti, *t.mri, t.options));
    if (!ce || !mab)
      return createStringError("cannot create the AMDGPU code emitter");
    auto ow = mab->createObjectWriter(os);
    if (targetStreamer)
      streamer.reset(t.target->createMCObjectStreamer(
          t.triple, ctx, std::move(mab), std::move(ow), std::move(ce), *t.sti));
    else
      streamer.reset(createELFStreamer(ctx, std::move(mab), std::move(ow), std::move(ce)));
    return Error::success();
  }
};
} // namespace

static Expected<std::vector<char>>
assembleObjectUnguarded(StringRef text, const MCTarget &t,
                        std::vector<AsmDiagnostic> *diags,
                        function_ref<void(MCAsmParser &)> prepare) {
  SourceMgr srcMgr;
  srcMgr.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(text, "<asm>"), SMLoc());
  std::vector<AsmDiagnostic> errors;
  std::string firstError;
  auto handler = [&](const SMDiagnostic &d) {
    if (d.getKind() != SourceMgr::DK_Error)
      return;
    errors.push_back({(unsigned)std::max(d.getLineNo(), 0),
                      (unsigned)std::max(d.getColumnNo() + 1, 0),
                      d.getMessage().str()});
  };
  srcMgr.setDiagHandler(
      [](const SMDiagnostic &d, void *ctx) {
        (*static_cast<decltype(handler) *>(ctx))(d);
      },
      &handler);

  MCContext ctx(t.triple, t.mai.get(), t.mri.get(), t.sti.get(), &srcMgr,
                &t.options);
  ctx.setDiagnosticHandler(
      [&](const SMDiagnostic &d, bool, const SourceMgr &, std::vector<const MDNode *> &) {
        handler(d);
      });
  ObjectSink sink;
  if (Error e = sink.open(t, ctx, /*targetStreamer=*/true))
    return std::move(e);
  MCStreamer *streamer = sink.streamer.get();
  std::unique_ptr<MCAsmParser> parser(
      createMCAsmParser(srcMgr, ctx, *streamer, *t.mai));
  std::unique_ptr<MCTargetAsmParser> tap(
      t.target->createMCAsmParser(*t.sti, *parser, *t.mii, t.options));
  if (!tap)
    return createStringError("cannot create the AMDGPU assembly parser");
  parser->setTargetParser(*tap);
  auto alignDirectives = installAlignDirectives(*parser);
  if (prepare)
    prepare(*parser);
  // Parsed without finishing: the layout is checked first (LayoutCheck.h),
  // then the streamer is finished as MCAsmParser::Run would.
  bool failedParse = parser->Run(/*NoInitialTextSection=*/false, /*NoFinalize=*/true);
  if (!failedParse && errors.empty() && !ctx.hadError()) {
    auto &as = static_cast<MCObjectStreamer *>(streamer)->getAssembler();
    if (auto problem = findLayoutProblem(as)) {
      if (problem->loc.isValid())
        srcMgr.PrintMessage(problem->loc, SourceMgr::DK_Error, problem->message);
      else
        errors.push_back({0, 0, problem->message});
    } else {
      if (auto *ts = streamer->getTargetStreamer())
        ts->emitConstantPools();
      streamer->finish();
    }
  }
  if (failedParse || !errors.empty() || ctx.hadError()) {
    std::string msg = "assembly failed";
    if (!errors.empty())
      msg = errors[0].line ? "line " + std::to_string(errors[0].line) + ": " + errors[0].message
                           : errors[0].message;
    if (diags)
      *diags = std::move(errors);
    return createStringError(msg);
  }
  return std::vector<char>(sink.buffer.begin(), sink.buffer.end());
}

Expected<std::vector<char>>
assembleObject(StringRef text, StringRef cpu, std::vector<AsmDiagnostic> *diags,
               function_ref<void(MCAsmParser &)> prepare) {
  auto tOr = MCTarget::get(cpu);
  if (!tOr)
    return tOr.takeError();
  const MCTarget &t = *tOr;
  // Text MC would loop on (see AsmLexCheck.h) never reaches MC.
  if (auto bad = findLexError(text, *t.mai)) {
    std::string msg = "line " + std::to_string(bad->line) + ": " + bad->message;
    if (diags)
      *diags = {*bad};
    return createStringError(msg);
  }
  // Text whose expansion MC would spend minutes and gigabytes on, neither.
  if (auto bad = findRunawaySize(text, *t.mai)) {
    std::string msg = "line " + std::to_string(bad->line) + ": " + bad->message;
    if (diags)
      *diags = {*bad};
    return createStringError(msg);
  }
  std::optional<Expected<std::vector<char>>> result;
  if (Error e = runRecoverable("assembly failed", [&] {
        result.emplace(assembleObjectUnguarded(text, t, diags, prepare));
      }))
    return std::move(e);
  return std::move(*result);
}

Expected<std::vector<char>>
streamObject(StringRef cpu, unsigned eflags, uint8_t abiVersion,
             function_ref<bool(MCStreamer &, const MCSubtargetInfo &)> emit) {
  auto tOr = MCTarget::get(cpu);
  if (!tOr)
    return tOr.takeError();
  const MCTarget &t = *tOr;
  std::optional<Expected<std::vector<char>>> result;
  if (Error e = runRecoverable("writing the object failed", [&] {
        std::string firstError;
        MCContext ctx(t.triple, t.mai.get(), t.mri.get(), t.sti.get(), nullptr, &t.options);
        ctx.setDiagnosticHandler([&](const SMDiagnostic &d, bool, const SourceMgr &,
                                     std::vector<const MDNode *> &) {
          if (d.getKind() == SourceMgr::DK_Error && firstError.empty())
            firstError = d.getMessage().str();
        });
        ObjectSink sink;
        if (Error e = sink.open(t, ctx, /*targetStreamer=*/false)) {
          result.emplace(std::move(e));
          return;
        }
        MCStreamer &out = *sink.streamer;
        out.initSections(/*NoExecStack=*/false, *t.sti);
        if (!emit(out, *t.sti)) {
          result.emplace(createStringError("the object's contents were rejected"));
          return;
        }
        ELFObjectWriter &w = static_cast<MCELFStreamer &>(out).getWriter();
        w.setELFHeaderEFlags(eflags);
        w.setOverrideABIVersion(abiVersion);
        out.finish();
        if (ctx.hadError())
          result.emplace(createStringError(firstError.empty() ? "writing the object failed"
                                                              : firstError));
        else
          result.emplace(std::vector<char>(sink.buffer.begin(), sink.buffer.end()));
      }))
    return std::move(e);
  return std::move(*result);
}

Expected<std::vector<char>> assembleHsaco(StringRef text, StringRef cpu,
                                          std::vector<AsmDiagnostic> *diags) {
  auto obj = assembleObject(text, cpu, diags);
  if (!obj)
    return obj.takeError();
  return linkObject(*obj);
}

} // namespace aster::target
