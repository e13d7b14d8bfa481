//===- AsmExpand.cpp - assembly as authors write it, expanded by LLVM MC -===//
//
// How (see AsmExpand.h for what): MC's AsmParser runs with an assembly
// streamer whose output goes to a LineSink; at each printed newline the sink
// asks the streamer for the statement being parsed (MCStreamer's start-token
// location, set by the parser for every statement), so each line knows its
// statement. A statement inside a macro or `.rept` expansion lives in an
// instantiation buffer MC made; the first time a line comes from such a
// buffer, a note through MCAsmParser::Note makes MC list its active
// instantiations ("while in macro instantiation", innermost first), which is
// the buffer's call chain. Line k of an instantiation is line k of the
// macro's body (MC substitutes arguments within lines), or, for `.rept` /
// `.irp` / `.irpc` (copies of the body one after another), body line
// (k-1) mod (lines of the body).
//
// Bounds. MC expands without limit (`.rept 1<<40` builds the whole copy in
// memory first). A parser extension takes `.rept`/`.rep` (every spelling):
// it evaluates the count, finds the body's end with MC's lexer, and refuses
// copies past kMaxLines or kMaxExpandedBytes; otherwise it
// puts the statement back for MC's own `.rept` under an alias spelling no
// source can write. The end of every instantiation (`.endr` / `.endmacro`,
// which MC appends) goes through the extension the same way, to count the
// copies (kMaxCopies), the text expanded (macros calling macros) and the
// lines printed against the same bounds. Past a bound the parser is sent to the end of its input (an
// error names the line), so it stops at once.
//
//===----------------------------------------------------------------------===//
#include "target/raise/AsmExpand.h"
#include "recovery/Recovery.h"
#include "target/AsmLexCheck.h"
#include "target/MCTarget.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCAsmMacro.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/AsmLexer.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCAsmParserExtension.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/Support/FormattedStream.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <deque>
#include <optional>
#include <map>
#include <mutex>

using namespace llvm;
using mlir::CallSiteLoc;
using mlir::FileLineColLoc;
using mlir::Location;
using mlir::MLIRContext;
using mlir::NameLoc;
using mlir::StringAttr;

namespace aster::raise {

namespace {

// Bounds of one expansion [model: far above hand-written kernels (AMD's
// assembly kernels hold tens of thousands of instructions, their sources
// call macros and repeat bodies hundreds to a few thousand times), low
// enough that reaching one costs well under a second of MC's time]. Lines
// and copies count only what expansion makes, not lines written out.
constexpr uint64_t kMaxLines = 1ull << 17;          // lines printed from copies
constexpr uint64_t kMaxCopies = 1ull << 14;         // macro calls and .rept/.irp blocks
constexpr uint64_t kMaxExpandedBytes = 64ull << 20; // text of all copies
// Origins asked of MC (one note each; MC looks each of its notes' buffers
// up one by one, so a note costs in proportion to the copies made). Lines
// of copies past this many get the copy's own line number only.
constexpr unsigned kMaxProbes = 1u << 12;

/// MC's note text that asks for the active instantiations.
constexpr StringLiteral kProbe = "aster: origin of a line";
/// Spellings of MC's own directives that no source can write (the lexer never
/// makes an identifier holding \x01); see the header comment.
constexpr StringLiteral kReptAlias = ".aster\x01rept";
constexpr StringLiteral kEndrAlias = ".aster\x01endr";
constexpr StringLiteral kEndmAlias = ".aster\x01endm";

/// One frame of a line's origin: a place in a file, and how the next frame
/// (its caller) led to it.
struct Frame {
  std::string file;
  unsigned line = 0, col = 0;
  std::string via; ///< "macro 'addv'", ".rept", ".include"; empty for the last
};

class Expander;

/// The printer's output, with the statement each line came from.
class LineSink : public raw_ostream {
public:
  explicit LineSink(Expander &x) : raw_ostream(/*unbuffered=*/true), x(x) {}
  std::string text;

private:
  void write_impl(const char *p, size_t n) override;
  uint64_t current_pos() const override { return text.size(); }
  Expander &x;
};

/// Takes `.rept`/`.rep` and the ends of instantiations (see the header).
class Guard : public MCAsmParserExtension {
public:
  explicit Guard(Expander &x) : x(x) {}
  void Initialize(MCAsmParser &p) override;

private:
  bool rept(StringRef dir, SMLoc loc);
  bool endOfCopy(StringRef dir, SMLoc loc);
  bool stop(SMLoc loc, const Twine &msg);
  Expander &x;
};

class Expander {
public:
  Expander(MLIRContext *ctx, SourceMgr &sm, const ExpandOptions &opts, unsigned mainBuf)
      : ctx(ctx), sm(sm), opts(opts), mainBuf(mainBuf) {}

  // --- while MC runs
  unsigned bufferOf(SMLoc l);
  void onLine(SMLoc l);
  void onDiagnostic(const SMDiagnostic &d);
  /// The `.endr` matching the `.rept`/`.irp`/`.irpc` whose name is at `dir`
  /// (null if none).
  const char *matchingEndr(SMLoc dir);
  /// A fresh `.rept` spelling standing for the `.rept` at `real`.
  StringRef reptAlias(SMLoc real);
  StringRef endAlias(bool macro) const { return macro ? endmTok : endrTok; }

  // --- after
  std::vector<Frame> frames(SMLoc l);
  Location location(ArrayRef<Frame> f);
  static std::string where(ArrayRef<Frame> f);
  std::vector<std::string> errorMessages();

  MLIRContext *ctx;
  SourceMgr &sm;
  const ExpandOptions &opts;
  unsigned mainBuf;
  MCContext *mc = nullptr;
  MCAsmParser *parser = nullptr;
  const MCStreamer *streamer = nullptr;
  /// The origin of lines printed after the parser is gone (the streamer's
  /// last output as it is destroyed): the last statement's.
  SMLoc endLoc;
  std::vector<SMLoc> lineOrigins;
  uint64_t expanded = 0, copies = 0, expandedLines = 0;
  bool stopped = false;

private:
  bool isInstantiation(unsigned b);
  void setChain(unsigned b, ArrayRef<SMLoc> chain);
  SMLoc real(SMLoc l);
  std::vector<Frame> framesAt(unsigned b, unsigned line, unsigned col);
  std::string fileName(unsigned b);

  struct Diag {
    SMLoc loc;
    std::string message;
    std::vector<SMLoc> chain;
  };
  std::deque<Diag> errors;
  std::vector<SMLoc> probeChain;
  std::vector<SMLoc> *collecting = nullptr;
  DenseMap<unsigned, std::vector<SMLoc>> chains; ///< instantiation buffer -> calls
  DenseMap<unsigned, SMLoc> aliasOf;             ///< alias buffer -> its `.rept`
  DenseMap<const char *, const char *> endrOf;
  unsigned lastBuf = 0;
  std::map<const char *, unsigned> starts; ///< buffer start -> id
  unsigned indexed = 0, probes = 0;
  StringRef endrTok, endmTok;

public:
  void makeEndAliases();
};

//===----------------------------------------------------------------------===//
// LineSink
//===----------------------------------------------------------------------===//

void LineSink::write_impl(const char *p, size_t n) {
  size_t from = text.size();
  text.append(p, n);
  for (size_t i = from; i < text.size(); ++i)
    if (text[i] == '\n')
      x.onLine(x.streamer ? x.streamer->getStartTokLoc() : x.endLoc);
}

//===----------------------------------------------------------------------===//
// Guard
//===----------------------------------------------------------------------===//

/// Every upper/lower case spelling of `s` (the parser's table of built-in
/// directives ignores case; its table of extensions does not).
static std::vector<std::string> spellings(StringRef s) {
  std::vector<std::string> out{""};
  for (char c : s) {
    std::vector<std::string> next;
    for (const std::string &p : out) {
      next.push_back(p + (char)toLower(c));
      if (toUpper(c) != toLower(c))
        next.push_back(p + (char)toUpper(c));
    }
    out = std::move(next);
  }
  return out;
}

void Guard::Initialize(MCAsmParser &p) {
  MCAsmParserExtension::Initialize(p);
  static std::deque<std::string> names; // the parser keeps StringRefs
  static std::once_flag once;
  std::call_once(once, [] {
    for (StringRef d : {".rept", ".rep"})
      for (std::string &s : spellings(d))
        names.push_back(s);
  });
  for (const std::string &s : names)
    p.addDirectiveHandler(s, {this, HandleDirective<Guard, &Guard::rept>});
  // What MC appends to each instantiation it makes.
  p.addDirectiveHandler(".endr", {this, HandleDirective<Guard, &Guard::endOfCopy>});
  p.addDirectiveHandler(".endmacro", {this, HandleDirective<Guard, &Guard::endOfCopy>});
  p.addAliasForDirective(kReptAlias, ".rept");
  p.addAliasForDirective(kEndrAlias, ".endr");
  p.addAliasForDirective(kEndmAlias, ".endmacro");
}

bool Guard::stop(SMLoc loc, const Twine &msg) {
  x.stopped = true;
  Error(loc, msg);
  // At the end of its current buffer the parser's loop ends.
  while (getLexer().isNot(AsmToken::Eof))
    getLexer().Lex();
  return true;
}

bool Guard::rept(StringRef dir, SMLoc loc) {
  if (x.stopped)
    return stop(loc, "expansion stopped");
  SMLoc countLoc = getLexer().getLoc();
  int64_t count;
  if (getParser().parseAbsoluteExpression(count))
    return true;
  if (count < 0)
    return Error(countLoc, "the count of '" + dir + "' is negative");
  if (getLexer().isNot(AsmToken::EndOfStatement))
    return TokError("expected the end of the '" + dir + "' line");
  const char *end = x.matchingEndr(loc);
  const char *bodyStart = getLexer().getTok().getEndLoc().getPointer();
  StringRef body = end && end > bodyStart ? StringRef(bodyStart, end - bodyStart) : StringRef();
  uint64_t lines = std::max<uint64_t>(body.count('\n'), 1);
  uint64_t linesLeft = kMaxLines - std::min<uint64_t>(x.expandedLines, kMaxLines);
  uint64_t bytesLeft = kMaxExpandedBytes - std::min(x.expanded, kMaxExpandedBytes);
  if ((uint64_t)count > linesLeft / lines)
    return stop(countLoc, "'" + dir + " " + Twine(count) + "' expands to more than " +
                              Twine(kMaxLines) + " lines");
  if ((uint64_t)count > bytesLeft / (body.size() + 1))
    return stop(countLoc, "'" + dir + " " + Twine(count) + "' expands to more than " +
                              Twine(kMaxExpandedBytes >> 20) + " MiB of text");
  x.expanded += (uint64_t)count * (body.size() + 1);
  // MC's own .rept reads the count, the end of line and the body next.
  StringRef alias = x.reptAlias(loc);
  getLexer().UnLex(AsmToken(AsmToken::Integer, alias.drop_front(alias.size() - 1), count));
  getLexer().UnLex(AsmToken(AsmToken::Identifier, alias.drop_back(2)));
  return false;
}

bool Guard::endOfCopy(StringRef dir, SMLoc loc) {
  if (x.stopped)
    return stop(loc, "expansion stopped");
  if (unsigned b = x.bufferOf(loc))
    x.expanded += getParser().getSourceManager().getMemoryBuffer(b)->getBufferSize();
  if (++x.copies > kMaxCopies)
    return stop(loc, "macros and repeats make more than " + Twine(kMaxCopies) + " copies");
  if (x.expanded > kMaxExpandedBytes)
    return stop(loc, "macros and repeats expand to more than " +
                         Twine(kMaxExpandedBytes >> 20) + " MiB of text");
  if (x.expandedLines > kMaxLines)
    return stop(loc, "the expansion prints more than " + Twine(kMaxLines) + " lines");
  getLexer().UnLex(AsmToken(AsmToken::Identifier, x.endAlias(dir == ".endmacro")));
  return false;
}

//===----------------------------------------------------------------------===//
// Expander
//===----------------------------------------------------------------------===//

unsigned Expander::bufferOf(SMLoc l) {
  if (!l.isValid())
    return 0;
  const char *p = l.getPointer();
  if (lastBuf) {
    StringRef b = sm.getMemoryBuffer(lastBuf)->getBuffer();
    // <= end: a token at the end of the buffer (its end of file)
    if (p >= b.begin() && p <= b.end())
      return lastBuf;
  }
  // SourceMgr looks buffers up one by one; MC adds one per copy.
  for (unsigned n = sm.getNumBuffers(); indexed < n; ++indexed)
    starts[sm.getMemoryBuffer(indexed + 1)->getBufferStart()] = indexed + 1;
  auto it = starts.upper_bound(p);
  if (it == starts.begin())
    return 0;
  unsigned b = std::prev(it)->second;
  if (p > sm.getMemoryBuffer(b)->getBufferEnd())
    return 0;
  return lastBuf = b;
}

bool Expander::isInstantiation(unsigned b) {
  return b && b != mainBuf && !sm.getParentIncludeLoc(b).isValid() && !aliasOf.count(b) &&
         sm.getMemoryBuffer(b)->getBufferIdentifier() == "<instantiation>";
}

SMLoc Expander::real(SMLoc l) {
  auto it = aliasOf.find(bufferOf(l));
  return it == aliasOf.end() ? l : it->second;
}

void Expander::setChain(unsigned b, ArrayRef<SMLoc> chain) {
  for (size_t i = 0; i < chain.size() && b && isInstantiation(b) && !chains.count(b); ++i) {
    chains[b] = std::vector<SMLoc>(chain.begin() + i, chain.end());
    b = bufferOf(real(chain[i]));
  }
}

void Expander::onLine(SMLoc l) {
  lineOrigins.push_back(l);
  unsigned b = bufferOf(l);
  if (!b || !isInstantiation(b))
    return;
  ++expandedLines;
  if (chains.count(b) || !parser || probes >= kMaxProbes)
    return;
  ++probes;
  probeChain.clear();
  parser->Note(l, kProbe);
  collecting = nullptr;
  setChain(b, probeChain);
  if (!chains.count(b))
    chains[b] = {};
}

void Expander::onDiagnostic(const SMDiagnostic &d) {
  if (d.getKind() == SourceMgr::DK_Note) {
    if (d.getMessage() == kProbe)
      collecting = &probeChain;
    else if (d.getMessage() == "while in macro instantiation" && collecting)
      collecting->push_back(d.getLoc());
    return;
  }
  if (d.getKind() != SourceMgr::DK_Error) {
    collecting = nullptr;
    return;
  }
  errors.push_back({d.getLoc(), d.getMessage().str(), {}});
  collecting = &errors.back().chain;
}

StringRef Expander::reptAlias(SMLoc realLoc) {
  // A buffer of its own, so that MC's notes can point at it and the
  // origin can find the `.rept` it stands for.
  std::string s = (kReptAlias + " 0").str();
  unsigned b = sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(s, "<aster>"), SMLoc());
  aliasOf[b] = realLoc;
  return sm.getMemoryBuffer(b)->getBuffer();
}

void Expander::makeEndAliases() {
  std::string s = (kEndrAlias + "\n" + kEndmAlias + "\n").str();
  unsigned b = sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(s, "<aster>"), SMLoc());
  aliasOf[b] = SMLoc();
  StringRef t = sm.getMemoryBuffer(b)->getBuffer();
  endrTok = t.take_front(kEndrAlias.size());
  endmTok = t.drop_front(kEndrAlias.size() + 1).take_front(kEndmAlias.size());
}

const char *Expander::matchingEndr(SMLoc dir) {
  auto it = endrOf.find(dir.getPointer());
  if (it != endrOf.end())
    return it->second;
  unsigned b = bufferOf(dir);
  const char *found = nullptr;
  if (b && mc) {
    AsmLexer lex(*mc->getAsmInfo());
    lex.setBuffer(sm.getMemoryBuffer(b)->getBuffer(), dir.getPointer());
    lex.Lex();
    unsigned depth = 0;
    bool start = true;
    while (lex.isNot(AsmToken::Eof)) {
      const AsmToken &t = lex.getTok();
      if (start && t.is(AsmToken::Identifier)) {
        std::string id = t.getString().lower();
        if (id == ".rept" || id == ".rep" || id == ".irp" || id == ".irpc")
          ++depth;
        else if (id == ".endr" && depth && --depth == 0) {
          found = t.getLoc().getPointer();
          break;
        }
      }
      start = t.is(AsmToken::EndOfStatement);
      lex.Lex();
    }
  }
  endrOf[dir.getPointer()] = found;
  return found;
}

std::string Expander::fileName(unsigned b) {
  if (b == mainBuf)
    return opts.sourceName;
  return sm.getMemoryBuffer(b)->getBufferIdentifier().str();
}

/// The identifier written at `p` (a directive or macro name).
static StringRef identifierAt(const char *p, const char *end) {
  const char *q = p;
  while (q < end && (isAlnum(*q) || *q == '_' || *q == '.' || *q == '$' || *q == '@'))
    ++q;
  return StringRef(p, q - p);
}

std::vector<Frame> Expander::frames(SMLoc l) {
  unsigned b = bufferOf(l);
  if (!b)
    return {Frame{opts.sourceName, 0, 0, ""}};
  auto [line, col] = sm.getLineAndColumn(l, b);
  return framesAt(b, line, col);
}

std::vector<Frame> Expander::framesAt(unsigned b, unsigned line, unsigned col) {
  if (!isInstantiation(b)) {
    std::vector<Frame> out{Frame{fileName(b), line, col, ""}};
    SMLoc inc = sm.getParentIncludeLoc(b);
    if (inc.isValid()) {
      out[0].via = ".include";
      auto rest = frames(inc);
      out.insert(out.end(), rest.begin(), rest.end());
    }
    return out;
  }
  auto it = chains.find(b);
  if (it == chains.end() || it->second.empty())
    return {Frame{"<instantiation>", line, col, ""}};
  SMLoc call = real(it->second.front());
  unsigned cb = bufferOf(call);
  if (!cb)
    return {Frame{"<instantiation>", line, col, ""}};
  StringRef callBuf = sm.getMemoryBuffer(cb)->getBuffer();
  StringRef name = identifierAt(call.getPointer(), callBuf.end());
  std::string lower = name.lower();
  Frame inner{"<instantiation>", line, col, ""};
  if (lower == ".rept" || lower == ".rep" || lower == ".irp" || lower == ".irpc") {
    // Copies of the body, the line after the directive to the `.endr`.
    unsigned first = sm.getLineAndColumn(call, cb).first + 1;
    const char *end = matchingEndr(call);
    unsigned last = end ? sm.getLineAndColumn(SMLoc::getFromPointer(end), cb).first : first + 1;
    unsigned per = last > first ? last - first : 1;
    unsigned at = first + (line - 1) % per;
    inner = framesAt(cb, at, col).front();
    inner.via = lower;
  } else if (mc) {
    const MCAsmMacro *m = mc->lookupMacro(name);
    if (!m)
      m = mc->lookupMacro(lower);
    if (m) {
      SMLoc body = SMLoc::getFromPointer(m->Body.data());
      unsigned db = bufferOf(body);
      if (db) {
        unsigned at = sm.getLineAndColumn(body, db).first + line - 1;
        inner = framesAt(db, at, col).front();
      }
    }
    inner.via = "macro '" + name.str() + "'";
  }
  std::vector<Frame> out{inner};
  auto rest = frames(call);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

std::string Expander::where(ArrayRef<Frame> f) {
  std::string s = f[0].file + ":" + std::to_string(f[0].line);
  for (size_t i = 0; i + 1 < f.size(); ++i) {
    s += i ? ", " : " (";
    std::string at = f[i + 1].file + ":" + std::to_string(f[i + 1].line);
    if (f[i].via == ".include")
      s += "included from " + at;
    else if (StringRef(f[i].via).starts_with("macro"))
      s += "in " + f[i].via + " called at " + at;
    else
      s += "in " + f[i].via + " at " + at;
  }
  if (f.size() > 1)
    s += ")";
  return s;
}

Location Expander::location(ArrayRef<Frame> f) {
  auto fileLoc = [&](const Frame &x) -> Location {
    return FileLineColLoc::get(ctx, x.file, x.line, std::max(x.col, 1u));
  };
  Location loc = fileLoc(f.back());
  for (size_t i = f.size() - 1; i-- > 0;)
    loc = CallSiteLoc::get(NameLoc::get(StringAttr::get(ctx, f[i].via), fileLoc(f[i])), loc);
  return loc;
}

std::vector<std::string> Expander::errorMessages() {
  std::vector<std::string> out;
  for (Diag &d : errors) {
    unsigned b = bufferOf(d.loc);
    if (b && isInstantiation(b))
      setChain(b, d.chain);
    std::string msg = (b ? where(frames(d.loc)) : opts.sourceName) + ": " + d.message;
    if (out.empty() || out.back() != msg) // each copy of a body repeats its errors
      out.push_back(std::move(msg));
  }
  return out;
}

/// "sramecc+:xnack-" as subtarget features ("+sramecc,-xnack").
static std::string featureString(StringRef targetIdFeatures) {
  std::string out;
  SmallVector<StringRef> parts;
  targetIdFeatures.split(parts, ':', -1, false);
  for (StringRef p : parts) {
    if (p.size() < 2 || (p.back() != '+' && p.back() != '-'))
      continue;
    if (!out.empty())
      out += ",";
    out += p.back();
    out += p.drop_back().str();
  }
  return out;
}

/// A string operand outside the data directives (a macro or `.irp`
/// argument) that MC's lexer cannot read: MC substitutes it into a copy
/// unquoted, where an unterminated comment or string swallows the copy's end
/// and MC's statement recovery never finds an end of statement (the hang
/// AsmLexCheck.h describes, made by substitution). Such text could not
/// assemble; it is refused before MC runs.
static std::optional<std::string> badStringArgument(StringRef text, const MCAsmInfo &mai) {
  std::string copy = text.str(); // NUL-terminated, as the lexer requires
  AsmLexer lex(mai);
  lex.setBuffer(copy);
  lex.Lex();
  bool start = true, data = false;
  unsigned line = 1;
  const char *lineFrom = copy.data();
  while (lex.isNot(AsmToken::Eof)) {
    const AsmToken &t = lex.getTok();
    if (t.is(AsmToken::Error))
      return std::nullopt; // findLexError's case
    if (start && t.is(AsmToken::Identifier)) {
      std::string id = t.getString().lower();
      if (id == ".amdgpu_metadata" || id == ".amdgpu_pal_metadata")
        return std::nullopt; // raw YAML follows (findLexError skips it too)
      data = StringSwitch<bool>(id)
                 .Cases({".ascii", ".asciz", ".string", ".print", ".error", ".warning"}, true)
                 .Cases({".section", ".include", ".incbin", ".amdgcn_target", ".file"}, true)
                 .Cases({".ident", ".err", ".abort"}, true)
                 .Default(false);
    }
    if (!data && t.is(AsmToken::String)) {
      std::string inner = t.getStringContents().str() + "\n";
      if (auto bad = target::findLexError(inner, mai)) {
        line += StringRef(lineFrom, t.getLoc().getPointer() - lineFrom).count('\n');
        return std::to_string(line) + ": an argument MC would substitute unquoted does not "
                                       "lex: " + bad->message;
      }
    }
    start = t.is(AsmToken::EndOfStatement);
    lex.Lex();
  }
  return std::nullopt;
}

} // namespace

Expected<ExpandedAsm> expandAsm(MLIRContext *ctx, StringRef text, StringRef cpu,
                                StringRef features, const ExpandOptions &opts) {
  auto tOr = target::MCTarget::create(cpu);
  if (!tOr)
    return tOr.takeError();
  target::MCTarget &t = **tOr;
  if (!features.empty())
    t.sti.reset(t.target->createMCSubtargetInfo(t.triple, cpu, featureString(features)));
  t.mai->setPreserveAsmComments(false); // as llvm-mc: comments are not printed
  if (auto bad = target::findLexError(text, *t.mai))
    return createStringError(opts.sourceName + ":" + std::to_string(bad->line) + ": " +
                             bad->message);
  if (auto bad = badStringArgument(text, *t.mai))
    return createStringError(opts.sourceName + ":" + *bad);

  ExpandedAsm out;
  std::vector<std::string> messages;
  if (Error e = runRecoverable("reading the assembly failed", [&] {
        SourceMgr sm;
        unsigned mainBuf =
            sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(text, opts.sourceName), SMLoc());
        sm.setIncludeDirs(opts.includeDirs);
        Expander x(ctx, sm, opts, mainBuf);
        sm.setDiagHandler(
            [](const SMDiagnostic &d, void *p) { static_cast<Expander *>(p)->onDiagnostic(d); },
            &x);
        MCContext mc(t.triple, t.mai.get(), t.mri.get(), t.sti.get(), &sm, &t.options);
        mc.setDiagnosticHandler([&](const SMDiagnostic &d, bool, const SourceMgr &,
                                    std::vector<const MDNode *> &) { x.onDiagnostic(d); });
        x.mc = &mc;
        std::unique_ptr<MCObjectFileInfo> mofi(
            t.target->createMCObjectFileInfo(mc, /*PIC=*/true));
        mc.setObjectFileInfo(mofi.get());
        LineSink sink(x);
        auto fos = std::make_unique<formatted_raw_ostream>(sink);
        std::unique_ptr<MCInstPrinter> printer(t.target->createMCInstPrinter(
            t.triple, t.mai->getAssemblerDialect(), *t.mai, *t.mii, *t.mri));
        std::unique_ptr<MCStreamer> streamer(
            t.target->createAsmStreamer(mc, std::move(fos), std::move(printer), nullptr, nullptr));
        std::unique_ptr<MCAsmParser> parser(createMCAsmParser(sm, mc, *streamer, *t.mai));
        std::unique_ptr<MCTargetAsmParser> tap(
            t.target->createMCAsmParser(*t.sti, *parser, *t.mii, t.options));
        if (!tap) {
          messages.push_back("cannot create the AMDGPU assembly parser");
          return;
        }
        parser->setTargetParser(*tap);
        x.makeEndAliases();
        Guard guard(x);
        guard.Initialize(*parser);
        x.parser = parser.get();
        x.streamer = streamer.get();
        bool failed = parser->Run(/*NoInitialTextSection=*/false);
        x.parser = nullptr;
        // The parsers go first, then the streamer (which flushes the printer
        // into the sink): AsmParser's destructor writes into its streamer
        // (MCStreamer::setStartTokLocPtr(nullptr)). Destroyed the other way
        // round, that write of 8 zero bytes landed in freed memory, wherever
        // the heap had reused the streamer's block (a line's origin text, or
        // malloc's own chunk headers: the intermittent "corrupted size vs.
        // prev_size" aborts of issue 24; valgrind shows it on any input).
        x.endLoc = streamer->getStartTokLoc();
        x.streamer = nullptr;
        tap.reset();
        parser.reset();
        streamer.reset();
        messages = x.errorMessages();
        if (failed && messages.empty())
          messages.push_back(opts.sourceName + ": the assembly has errors");
        if (!messages.empty())
          return;
        out.text = std::move(sink.text);
        if (!out.text.empty() && out.text.back() != '\n')
          x.lineOrigins.push_back(x.lineOrigins.empty() ? SMLoc() : x.lineOrigins.back());
        out.lines.reserve(x.lineOrigins.size());
        // Consecutive lines of one statement share their origin.
        SMLoc prev;
        for (SMLoc l : x.lineOrigins) {
          if (!out.lines.empty() && l == prev) {
            out.lines.push_back(out.lines.back());
            continue;
          }
          std::vector<Frame> f = x.frames(l);
          out.lines.push_back({x.location(f), Expander::where(f)});
          prev = l;
        }
      }))
    return std::move(e);
  if (!messages.empty()) {
    constexpr size_t kShown = 20;
    std::string msg;
    for (size_t i = 0; i < messages.size() && i < kShown; ++i)
      msg += (i ? "\n" : "") + messages[i];
    if (messages.size() > kShown)
      msg += "\n(" + std::to_string(messages.size() - kShown) + " more)";
    return createStringError(msg);
  }
  return std::move(out);
}

} // namespace aster::raise
