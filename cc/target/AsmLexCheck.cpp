//===- AsmLexCheck.cpp - reject assembly text that MC cannot lex ---------===//
#include "target/AsmLexCheck.h"

#include "llvm/MC/MCParser/AsmLexer.h"

#include <string>

using namespace llvm;

namespace aster::target {

AsmDiagnostic diagnosticAt(StringRef text, const char *at, StringRef msg) {
  size_t off = std::min<size_t>(at - text.data(), text.size());
  StringRef before = text.take_front(off);
  unsigned line = 1 + before.count('\n');
  size_t lineStart = before.rfind('\n');
  unsigned column = off - (lineStart == StringRef::npos ? 0 : lineStart + 1) + 1;
  return {line, column, msg.str()};
}

std::optional<AsmDiagnostic> findLexError(StringRef input, const MCAsmInfo &mai) {
  std::string text = input.str(); // NUL-terminated, as the lexer requires
  StringRef buf(text);
  AsmLexer lexer(mai);
  lexer.setBuffer(buf);
  lexer.Lex();
  bool statementStart = true;
  while (!lexer.is(AsmToken::Eof)) {
    const AsmToken &tok = lexer.getTok();
    if (tok.is(AsmToken::Error))
      return diagnosticAt(buf, tok.getLoc().getPointer(), lexer.getErr());
    if (statementStart && tok.is(AsmToken::Identifier) &&
        tok.getString().starts_with(".amdgpu_") &&
        tok.getString().ends_with("metadata")) {
      // Raw YAML up to the matching end directive: continue after it.
      std::string end = ".end_" + tok.getString().drop_front(1).str();
      size_t at = buf.find(end, tok.getString().end() - buf.data());
      if (at == StringRef::npos)
        return diagnosticAt(buf, tok.getString().data(),
                            "no " + end + " after " + tok.getString().str());
      lexer.setBuffer(buf, buf.data() + at + end.size());
      lexer.Lex();
      statementStart = false;
      continue;
    }
    statementStart = tok.is(AsmToken::EndOfStatement);
    lexer.Lex();
  }
  return std::nullopt;
}

} // namespace aster::target
