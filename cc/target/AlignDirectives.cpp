//===- AlignDirectives.cpp - .p2align family with checked operands -------===//
#include "target/AlignDirectives.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCAsmParserExtension.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCSection.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/Support/MathExtras.h"

#include <memory>

using namespace llvm;

namespace aster::target {
namespace {

class AlignDirectives final : public MCAsmParserExtension {
public:
  void Initialize(MCAsmParser &parser) override {
    MCAsmParserExtension::Initialize(parser);
    parser.addDirectiveHandler(".p2align", {this, &handle<1>});
    parser.addDirectiveHandler(".p2alignw", {this, &handle<2>});
    parser.addDirectiveHandler(".p2alignl", {this, &handle<4>});
  }

private:
  template <unsigned FillSize>
  static bool handle(MCAsmParserExtension *self, StringRef, SMLoc) {
    return static_cast<AlignDirectives *>(self)->parseP2Align(FillSize);
  }

  /// `.p2align log2[, [fill][, max]]`: operands first, then checks, then one
  /// alignment fragment (or none when an operand is invalid).
  bool parseP2Align(unsigned fillSize) {
    MCAsmParser &p = getParser();
    SMLoc alignLoc = getTok().getLoc();
    int64_t log2 = 0, fill = 0, maxBytes = 0;
    bool hasFill = false;
    SMLoc maxLoc;
    if (p.parseAbsoluteExpression(log2))
      return true;
    if (parseOptionalToken(AsmToken::Comma)) {
      if (getTok().isNot(AsmToken::Comma) && getTok().isNot(AsmToken::EndOfStatement)) {
        hasFill = true;
        if (p.parseAbsoluteExpression(fill))
          return true;
      }
      if (parseOptionalToken(AsmToken::Comma)) {
        maxLoc = getTok().getLoc();
        if (p.parseAbsoluteExpression(maxBytes))
          return true;
      }
    }
    if (parseEOL())
      return true;
    if (p.checkForValidSection())
      return true;

    if (log2 < 0 || log2 >= 32)
      return Error(alignLoc, "invalid alignment value: " + Twine(log2) +
                                 " (.p2align takes a power of two from 0 to 31)");
    uint64_t alignment = uint64_t(1) << log2;
    if (maxLoc.isValid()) {
      if (maxBytes < 1)
        return Error(maxLoc, "alignment directive can never be satisfied in this many "
                             "bytes, ignoring maximum bytes expression");
      if (uint64_t(maxBytes) >= alignment) {
        Warning(maxLoc, "maximum bytes expression exceeds alignment and has no effect");
        maxBytes = 0;
      }
    }

    MCStreamer &out = getStreamer();
    const MCSection *section = out.getCurrentSectionOnly();
    if (!hasFill && section && section->isText())
      out.emitCodeAlignment(Align(alignment), &p.getTargetParser().getSTI(), maxBytes);
    else
      out.emitValueToAlignment(Align(alignment), fill, fillSize, maxBytes);
    return false;
  }
};

} // namespace

std::unique_ptr<MCAsmParserExtension> installAlignDirectives(MCAsmParser &parser) {
  auto ext = std::make_unique<AlignDirectives>();
  ext->Initialize(parser);
  return ext;
}

} // namespace aster::target
