//===- Build.cpp - sass modules from and to flat instruction lists --------===//
// See Build.h for the block rules.
#include "dialect/sass/Build.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

#include <map>
#include <set>

using namespace mlir;
using namespace aster::sass;

OwningOpRef<ModuleOp> aster::sass::buildModule(MLIRContext *ctx, StringRef moduleAttrs,
                                               const std::vector<FlatKernel> &kernels,
                                               std::string &err) {
  ctx->getOrLoadDialect<SassDialect>();
  OpBuilder b(ctx);
  Location loc = UnknownLoc::get(ctx);
  OwningOpRef<ModuleOp> m = ModuleOp::create(loc);
  auto dictOf = [&](StringRef text, DictionaryAttr &out) {
    if (text.empty())
      return true;
    Attribute a = parseAttribute(text, ctx);
    out = dyn_cast_or_null<DictionaryAttr>(a);
    if (!out)
      err = ("not an attribute dictionary: " + text.take_front(200)).str();
    return bool(out);
  };
  DictionaryAttr mattrs;
  if (!dictOf(moduleAttrs, mattrs))
    return nullptr;
  if (mattrs)
    for (NamedAttribute na : mattrs)
      (*m)->setAttr(na.getName(), na.getValue());
  b.setInsertionPointToEnd(m->getBody());
  for (const FlatKernel &k : kernels) {
    auto kop = KernelOp::create(b, loc, b.getStringAttr(k.name));
    DictionaryAttr kattrs;
    if (!dictOf(k.attrs, kattrs))
      return nullptr;
    if (kattrs)
      for (NamedAttribute na : kattrs)
        kop->setAttr(na.getName(), na.getValue());
    size_t n = k.insts.size();
    std::vector<ParsedInst> parsed(n);
    std::vector<std::optional<RegisteredOperationName>> names(n);
    std::set<size_t> leaders{0};
    bool entryTarget = false;
    for (size_t i = 0; i < n; ++i) {
      const FlatInst &fi = k.insts[i];
      if (!fi.raw.empty())
        continue;
      std::string e = tokenize(fi.text, parsed[i]);
      if (!e.empty()) {
        err = k.name + " instruction " + std::to_string(i) + " '" + fi.text + "': " + e;
        return nullptr;
      }
      std::string opName = "sass." + StringRef(parsed[i].opcode).split('.').first.str();
      names[i] = RegisteredOperationName::lookup(opName, ctx);
      if (!names[i]) {
        err = k.name + " instruction " + std::to_string(i) + " '" + fi.text + "': no op " + opName +
              " (the opcode is not in the sm_90a table)";
        return nullptr;
      }
      if ((parsed[i].labels != 0) != (fi.target >= 0) || fi.target > int64_t(n)) {
        err = k.name + " instruction " + std::to_string(i) + " '" + fi.text +
              "': branch target index does not match its text";
        return nullptr;
      }
      if (fi.target >= 0) {
        leaders.insert(fi.target);
        entryTarget |= fi.target == 0;
      }
      if (names[i]->hasTrait<OpTrait::IsTerminator>())
        leaders.insert(i + 1);
    }
    Region &body = kop.getBody();
    std::map<size_t, Block *> blockAt;
    Block *entry = entryTarget ? &body.emplaceBlock() : nullptr;
    for (size_t l : leaders)
      if (l <= n)
        blockAt[l] = &body.emplaceBlock();
    if (entry) {
      b.setInsertionPointToEnd(entry);
      NextOp::create(b, loc, blockAt.begin()->second);
    }
    for (auto it = blockAt.begin(); it != blockAt.end(); ++it) {
      size_t start = it->first;
      auto nx = std::next(it);
      size_t stop = nx == blockAt.end() ? n : nx->first;
      Block *blk = it->second;
      b.setInsertionPointToEnd(blk);
      for (size_t i = start; i < stop && i < n; ++i) {
        const FlatInst &fi = k.insts[i];
        if (!fi.raw.empty()) {
          auto r = RawOp::create(b, loc, b.getStringAttr(fi.raw));
          if (fi.pc >= 0)
            r->setAttr("sass.pc", b.getI64IntegerAttr(fi.pc));
          continue;
        }
        const ParsedInst &pi = parsed[i];
        OperationState st(loc, *names[i]);
        StringRef mods = StringRef(pi.opcode).split('.').second;
        st.addAttribute("mods", b.getStringAttr(mods.empty() ? "" : "." + mods.str()));
        std::string kinds;
        for (size_t j = 0; j < pi.kinds.size(); ++j)
          kinds += (j ? "," : "") + pi.kinds[j];
        st.addAttribute("kinds", b.getStringAttr(kinds));
        st.addAttribute("vals", b.getDenseI64ArrayAttr(pi.vals));
        st.addAttribute("ctrl", b.getI64IntegerAttr(fi.ctrl));
        if (fi.target >= 0)
          st.addSuccessors(blockAt.at(fi.target));
        if (fi.pc >= 0)
          st.addAttribute("sass.pc", b.getI64IntegerAttr(fi.pc));
        b.create(st);
      }
      if (blk->empty() || !blk->back().hasTrait<OpTrait::IsTerminator>()) {
        if (nx != blockAt.end())
          NextOp::create(b, loc, nx->second);
        else
          EndOp::create(b, loc);
      }
    }
    // An empty end block nothing branches to (after a final branch) is dropped.
    if (n > 0 && blockAt.count(n) && blockAt[n]->hasNoPredecessors())
      blockAt[n]->erase();
    b.setInsertionPointToEnd(m->getBody());
  }
  std::string diag;
  {
    ScopedDiagnosticHandler h(ctx, [&](Diagnostic &d) {
      diag += d.str() + "\n";
      return success();
    });
    if (failed(verify(*m))) {
      err = "the sass module does not verify: " + diag;
      return nullptr;
    }
  }
  return m;
}

std::vector<FlatKernel> aster::sass::readModule(ModuleOp m) {
  std::vector<FlatKernel> out;
  for (KernelOp k : m.getBody()->getOps<KernelOp>()) {
    FlatKernel fk;
    fk.name = k.getSymName().str();
    std::string s;
    llvm::raw_string_ostream os(s);
    DictionaryAttr::get(k->getContext(), k->getDiscardableAttrDictionary().getValue()).print(os);
    fk.attrs = s;
    std::map<Block *, int64_t> start;
    int64_t idx = 0;
    for (Block &blk : k.getBody()) {
      start[&blk] = idx;
      for (Operation &op : blk)
        idx += !isa<NextOp, EndOp>(op);
    }
    for (Block &blk : k.getBody())
      for (Operation &op : blk) {
        if (isa<NextOp, EndOp>(op))
          continue;
        FlatInst fi;
        if (auto pc = op.getAttrOfType<IntegerAttr>("sass.pc"))
          fi.pc = pc.getInt();
        if (auto raw = dyn_cast<RawOp>(op)) {
          fi.raw = raw.getWord().str();
          fk.insts.push_back(fi);
          continue;
        }
        std::optional<std::string> label;
        if (op.getNumSuccessors()) {
          fi.target = start.at(op.getSuccessor(0));
          label = ".L_x_" + std::to_string(fi.target);
        }
        fi.text = formatInst(&op, label);
        if (auto c = op.getAttrOfType<IntegerAttr>("ctrl"))
          fi.ctrl = c.getInt();
        fk.insts.push_back(fi);
      }
    out.push_back(std::move(fk));
  }
  return out;
}
