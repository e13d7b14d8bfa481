//===- Assembler.cpp - assembly to object (LLVM MC) and hsaco (lld) ------===//
//
// Objects are written by LLVM MC into memory with the process's MC objects
// for the target (MCTarget::get). Linking runs lld's ELF driver in process,
// one link at a time (lld keeps global state). On Linux the object and the
// code object never touch a file system (linkInMemory): lld reads the
// object from a memfd through /proc/self/fd and writes the code object to a
// pipe. lld's FileOutputBuffer writes an output that is not a regular file
// from an in-memory buffer, in one write at the end of the link (lld's
// Filesystem.cpp and LLVM's FileOutputBuffer.cpp): no temporary file, no
// rename, no unlink, no entry in LLVM's remove-on-signal list (a list that
// only grows and is walked on every temporary file). A thread drains the
// pipe while lld writes. Elsewhere, or when that cannot be set up, two
// temporary files (linkThroughFiles). Both give the same bytes: lld writes
// what it links, the output path is not part of it
// (tests/py/test_direct_emit.py compares with ld.lld-22's code object).
//
//===----------------------------------------------------------------------===//
#include "target/Assembler.h"
#include "recovery/ForkSafeMutex.h"
#include "recovery/Recovery.h"
#include "target/AlignDirectives.h"
#include "target/AsmLexCheck.h"
#include "target/AsmSizeCheck.h"
#include "target/LayoutCheck.h"
#include "target/MCTarget.h"

#include "lld/Common/Driver.h"
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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <system_error>
#include <thread>

#if defined(__linux__)
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

LLD_HAS_DRIVER(elf)

using namespace llvm;

namespace aster::target {

namespace {
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
  Error open(const MCTarget &t, MCContext &ctx, bool targetStreamer) {
    mofi.reset(t.target->createMCObjectFileInfo(ctx, /*PIC=*/true));
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

namespace {
/// lld keeps per-link global state: one link at a time. A fork() while
/// another thread links waits for that link.
ForkSafeMutex &lldMutex() {
  static ForkSafeMutex &mu = *new ForkSafeMutex;
  return mu;
}

/// Runs lld's ELF driver on object `in`, writing the code object to `out`
/// (paths). The caller holds lldMutex(). lld's own errors and LLVM's fatal
/// errors come back as an Error.
Error runLld(StringRef in, StringRef out) {
  std::string inStr = in.str(), outPath = out.str(), outStr, errStr;
  raw_string_ostream outOS(outStr), errOS(errStr);
  // --threads=1: lld's parallel algorithms would start LLVM's thread pool,
  // whose threads a fork() does not copy: the next link in a forked child
  // (multiprocessing's default) would wait on them forever.
  const char *args[] = {"ld.lld", "-shared", "--no-undefined", "--threads=1",
                        inStr.c_str(), "-o", outPath.c_str()};
  lld::Result r;
  // lldMain recovers from lld's own fatal errors; this also catches LLVM's.
  if (Error crashed = runRecoverable("lld failed", [&] {
        r = lld::lldMain(args, outOS, errOS, {{lld::Gnu, &lld::elf::link}});
      }))
    return crashed;
  if (r.retCode != 0)
    return createStringError("lld failed: " + errStr);
  return Error::success();
}

/// A temporary file removed on scope exit.
struct TempFile {
  SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      sys::fs::remove(path);
  }
};

Expected<std::vector<char>> linkThroughFiles(ArrayRef<char> object) {
  TempFile in, out;
  int fd;
  if (auto ec = sys::fs::createTemporaryFile("aster", "o", fd, in.path))
    return createStringError(ec, "cannot create a temporary object file");
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
  }
  if (auto ec = sys::fs::createTemporaryFile("aster", "hsaco", out.path))
    return createStringError(ec, "cannot create a temporary output file");
  {
    std::lock_guard<ForkSafeMutex> lock(lldMutex());
    if (Error e = runLld(in.path, out.path))
      return std::move(e);
  }
  auto buf = MemoryBuffer::getFile(out.path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!buf)
    return createStringError(buf.getError(), "cannot read the linked code object");
  StringRef b = (*buf)->getBuffer();
  return std::vector<char>(b.begin(), b.end());
}

#if defined(__linux__)
/// A file descriptor closed on scope exit.
struct Fd {
  int fd = -1;
  Fd() = default;
  Fd(const Fd &) = delete;
  ~Fd() { close(); }
  void close() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
  }
  std::string procPath() const { return "/proc/self/fd/" + std::to_string(fd); }
};

/// Writes all of `data` to `fd`; false on an error.
bool writeAll(int fd, ArrayRef<char> data) {
  const char *p = data.data();
  size_t left = data.size();
  while (left) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n, left -= n;
  }
  return true;
}

/// Reads pipe `fd` (non-blocking) until every writer closed it or, once
/// `stop` becomes readable, until it is empty. False on a read error.
bool drainPipe(int fd, int stop, std::vector<char> &out) {
  char buf[1 << 16];
  bool stopping = false;
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.insert(out.end(), buf, buf + n);
      continue;
    }
    if (n == 0)
      return true;
    if (errno == EINTR)
      continue;
    if (errno != EAGAIN)
      return false;
    if (stopping)
      return true;
    pollfd fds[2] = {{fd, POLLIN, 0}, {stop, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR)
      return false;
    stopping = fds[1].revents != 0;
  }
}

/// The link through memory (see the file header); nullopt when the memfd,
/// the pipes or /proc are not available (the caller links through files).
std::optional<Expected<std::vector<char>>> linkInMemory(ArrayRef<char> object) {
  Fd in, outRead, outWrite, stopRead, stopWrite;
  int p[2], q[2];
  in.fd = ::memfd_create("aster-object", MFD_CLOEXEC);
  if (in.fd < 0 || ::pipe2(p, O_CLOEXEC) != 0)
    return std::nullopt;
  outRead.fd = p[0], outWrite.fd = p[1];
  if (::pipe2(q, O_CLOEXEC) != 0)
    return std::nullopt;
  stopRead.fd = q[0], stopWrite.fd = q[1];
  if (::fcntl(outRead.fd, F_SETFL, O_NONBLOCK) != 0 || !writeAll(in.fd, object))
    return std::nullopt;
  std::string inPath = in.procPath(), outPath = outWrite.procPath();
  // lld would take a missing /proc path for a missing file.
  if (!sys::fs::exists(inPath) || !sys::fs::exists(outPath))
    return std::nullopt;
  std::vector<char> hsaco;
  bool readOk = true;
  Error linked = Error::success();
  {
    // The drain thread lives only while the lock is held: a fork() (which
    // waits for the lock) never happens while it runs.
    std::lock_guard<ForkSafeMutex> lock(lldMutex());
    std::thread drain;
    try {
      drain = std::thread([&] { readOk = drainPipe(outRead.fd, stopRead.fd, hsaco); });
    } catch (const std::system_error &) {
      return std::nullopt; // no thread to be had: through files
    }
    linked = runLld(inPath, outPath);
    // lld has written everything it will write (or failed): drain the rest.
    char one = 1;
    bool stopped = writeAll(stopWrite.fd, ArrayRef<char>(&one, 1));
    (void)stopped; // a full stop pipe is impossible (one byte)
    drain.join();
  }
  if (linked)
    return Expected<std::vector<char>>(std::move(linked));
  if (!readOk)
    return Expected<std::vector<char>>(createStringError("cannot read the linked code object"));
  if (hsaco.empty())
    return Expected<std::vector<char>>(createStringError("lld wrote no code object"));
  return Expected<std::vector<char>>(std::move(hsaco));
}
#endif
} // namespace

Expected<std::vector<char>> linkObject(ArrayRef<char> object) {
#if defined(__linux__)
  if (auto r = linkInMemory(object))
    return std::move(*r);
#endif
  return linkThroughFiles(object);
}

Expected<std::vector<char>> assembleHsaco(StringRef text, StringRef cpu,
                                          std::vector<AsmDiagnostic> *diags) {
  auto obj = assembleObject(text, cpu, diags);
  if (!obj)
    return obj.takeError();
  return linkObject(*obj);
}

} // namespace aster::target
