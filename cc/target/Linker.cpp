//===- Linker.cpp - one relocatable object to a code object with lld ------===//
//
// Needs: an ELF relocatable object for AMDGPU (LLVM MC's, Assembler.h).
// Guarantees: the code object ld.lld-22 makes of that object with
// `-shared`, byte for byte (the output path is not part of what lld writes;
// tests/py/test_link.py compares with ld.lld-22), or an Error; one link at
// a time in a process (lld keeps global state), fork- and thread-safe.
//
// lld's ELF driver runs in process. On Linux the object and the code object
// never touch a file system: lld reads the object from a memfd through
// /proc/self/fd and writes the code object to a pipe. lld's FileOutputBuffer
// writes an output that is not a regular file from an in-memory buffer, in
// one write at the end of the link (lld's Filesystem.cpp and LLVM's
// FileOutputBuffer.cpp): no temporary file, no rename, no unlink, no entry in
// LLVM's remove-on-signal list (a list that only grows and is walked on every
// temporary file). The pipe is made as large as the system lets a process
// make it (F_SETPIPE_SZ, up to /proc/sys/fs/pipe-max-size, 1 MiB by
// default). When the code object surely fits in it (outputBound: every input
// section with its alignment, the symbol, string, relocation and section
// tables lld builds from the object's (each at most a few times the
// object's own) and a page per segment, taken many times over), lld's single
// write cannot block and the pipe is read after lld returns, on this thread:
// no thread is started (a thread per link, its stack and its hand-offs were
// a twentieth of a small kernel's compile). Otherwise a thread drains the
// pipe while lld writes; it lives only while lldMutex() is held, so a fork()
// (which waits for that lock) never happens while it runs and a process
// that is not linking has no thread of ours (Python 3.12 warns on fork() in
// a process with threads).
//
// The memfd and the pipes are made once per process and kept (LinkChannel):
// making them per link (memfd_create, two pipe2, /proc checks, closes) was a
// tenth of a small kernel's link. A forked child makes its own (the parent's
// descriptors are shared with the parent); a descriptor of the channel that
// no longer names what it named (closed by someone, the number reused) makes
// a new channel too, and the old descriptors are left alone. Elsewhere, or
// when that cannot be set up, two temporary files (linkThroughFiles).
//
// LLVM's command-line options. lld's ELF driver resets every option
// registered with LLVM's command-line parser before each link
// (cl::ResetAllOptionOccurrences in its readConfigs, so that one link's
// -mllvm flags do not leak into the next). libLLVM registers some 2800
// options, and that walk (a virtual call on each, spread over the whole
// library's data) was about a tenth of a small kernel's compile time. aster
// passes lld no -mllvm flag and no code of aster's parses LLVM options after
// start-up (tools parse their own before their first link; MLIR pass options
// live in their passes' own option maps, not in the global registry), so the
// first link takes every option out of the registry once
// (unregisterLlvmOptions): their values stay what they are (lld's reset
// would have set them to their defaults at every link, undoing any option a
// tool was given on its command line), only parsing them by name no longer
// works. tests/py/test_link.py compares the code objects with ld.lld-22's.
//
//===----------------------------------------------------------------------===//
#include "target/Assembler.h"
#include "recovery/ForkSafeMutex.h"
#include "recovery/Recovery.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <system_error>

#if defined(__linux__)
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#endif

LLD_HAS_DRIVER(elf)

using namespace llvm;

namespace aster::target {

namespace {
/// lld keeps per-link global state: one link at a time. A fork() while
/// another thread links waits for that link.
ForkSafeMutex &lldMutex() {
  static ForkSafeMutex &mu = *new ForkSafeMutex;
  return mu;
}

/// Takes every LLVM command-line option out of the parser's registry, once
/// per process (see the file header). The caller holds lldMutex().
void unregisterLlvmOptions() {
  static bool done = false;
  if (done)
    return;
  done = true;
  SmallPtrSet<cl::Option *, 32> all;
  for (cl::SubCommand *sub : cl::getRegisteredSubcommands())
    for (auto &entry : cl::getRegisteredOptions(*sub))
      all.insert(entry.second);
  for (cl::Option *o : all)
    o->removeArgument();
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
  unregisterLlvmOptions();
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
/// Writes all of `data` to `fd` from offset 0 (pwrite) or at its position.
bool writeAll(int fd, ArrayRef<char> data, bool atZero) {
  const char *p = data.data();
  size_t left = data.size();
  off_t at = 0;
  while (left) {
    ssize_t n = atZero ? ::pwrite(fd, p, left, at) : ::write(fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n, left -= n, at += n;
  }
  return true;
}

/// An upper bound of the size of the code object lld makes of `object`
/// (see the file header): 8x the object (the tables lld builds from the
/// object's symbols, relocations and sections are each at most a few times
/// their size in the object), each section's alignment (padding), and 512
/// KiB (headers, the dynamic section, a page of up to 64 KiB for each of 8
/// segments). Unknown (the object does not parse): SIZE_MAX.
size_t outputBound(ArrayRef<char> object) {
  // LLVM's ELF reader over the bytes (no symbol table or section names
  // read: ObjectFile's full parse cost as much as a twentieth of a link).
  auto file = object::ELF64LEFile::create(StringRef(object.data(), object.size()));
  if (!file) {
    consumeError(file.takeError());
    return SIZE_MAX;
  }
  auto sections = file->sections();
  if (!sections) {
    consumeError(sections.takeError());
    return SIZE_MAX;
  }
  size_t bound = 8 * object.size() + (512u << 10);
  for (const auto &sec : *sections) {
    if (sec.sh_addralign > (1u << 30))
      return SIZE_MAX;
    bound += sec.sh_addralign;
  }
  return bound;
}

/// Identity of an open file: what a descriptor number named when it was
/// opened.
struct FileId {
  dev_t dev = 0;
  ino_t ino = 0;
  static std::optional<FileId> of(int fd) {
    struct stat st;
    if (::fstat(fd, &st) != 0)
      return std::nullopt;
    return FileId{st.st_dev, st.st_ino};
  }
  bool operator==(const FileId &o) const { return dev == o.dev && ino == o.ino; }
};

/// The memfd lld reads, the pipe it writes and the pipe that tells the
/// drain thread lld is done, kept between links of one process (see the
/// file header). Used only under lldMutex(); never destroyed.
struct LinkChannel {
  pid_t pid = 0;
  int object = -1, outRead = -1, outWrite = -1, stopRead = -1, stopWrite = -1;
  size_t capacity = 0; // bytes the output pipe holds
  FileId ids[5];
  std::string objectPath, outPath;

  /// Whether every descriptor still names what it named when made.
  bool intact() const {
    int fds[5] = {object, outRead, outWrite, stopRead, stopWrite};
    for (int i = 0; i < 5; ++i) {
      auto id = FileId::of(fds[i]);
      if (!id || !(*id == ids[i]))
        return false;
    }
    return true;
  }

  /// Reads what the pipe holds now, until it is empty. False on a read
  /// error (the write end is ours and open: a read never sees EOF).
  bool readAvailable(std::vector<char> &out) {
    char buf[1 << 16];
    for (;;) {
      ssize_t n = ::read(outRead, buf, sizeof buf);
      if (n > 0) {
        out.insert(out.end(), buf, buf + n);
        continue;
      }
      if (n < 0 && errno == EINTR)
        continue;
      return n < 0 && errno == EAGAIN; // empty
    }
  }

  /// Reads the pipe until it is empty after a byte on the stop pipe (lld
  /// has written all it will). False on a read error.
  bool drainOne(std::vector<char> &out) {
    for (bool stopping = false;;) {
      if (!readAvailable(out))
        return false;
      if (stopping) {
        char c;
        while (::read(stopRead, &c, 1) < 0 && errno == EINTR) {
        }
        return true;
      }
      pollfd fds[2] = {{outRead, POLLIN, 0}, {stopRead, POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0 && errno != EINTR)
        return false;
      stopping = fds[1].revents != 0;
    }
  }

  /// A channel for this process, or null when one cannot be made.
  static LinkChannel *make() {
    auto *c = new LinkChannel;
    auto fail = [&]() -> LinkChannel * {
      for (int fd : {c->object, c->outRead, c->outWrite, c->stopRead, c->stopWrite})
        if (fd >= 0)
          ::close(fd);
      delete c;
      return nullptr;
    };
    int p[2], q[2];
    c->object = ::memfd_create("aster-object", MFD_CLOEXEC);
    if (c->object < 0 || ::pipe2(p, O_CLOEXEC) != 0)
      return fail();
    c->outRead = p[0], c->outWrite = p[1];
    if (::pipe2(q, O_CLOEXEC) != 0)
      return fail();
    c->stopRead = q[0], c->stopWrite = q[1];
    if (::fcntl(c->outRead, F_SETFL, O_NONBLOCK) != 0 ||
        ::fcntl(c->stopRead, F_SETFL, O_NONBLOCK) != 0)
      return fail();
    // As large as allowed (a failure leaves the default); what it holds.
    (void)::fcntl(c->outWrite, F_SETPIPE_SZ, 1 << 20);
    int capacity = ::fcntl(c->outWrite, F_GETPIPE_SZ);
    c->capacity = capacity > 0 ? capacity : 0;
    int fds[5] = {c->object, c->outRead, c->outWrite, c->stopRead, c->stopWrite};
    for (int i = 0; i < 5; ++i) {
      auto id = FileId::of(fds[i]);
      if (!id)
        return fail();
      c->ids[i] = *id;
    }
    c->objectPath = "/proc/self/fd/" + std::to_string(c->object);
    c->outPath = "/proc/self/fd/" + std::to_string(c->outWrite);
    // lld would take a missing /proc path for a missing file.
    if (!sys::fs::exists(c->objectPath) || !sys::fs::exists(c->outPath))
      return fail();
    c->pid = ::getpid();
    return c;
  }

  /// This process's channel (made on first use, again in a forked child or
  /// when a descriptor changed), or null. The caller holds lldMutex().
  static LinkChannel *get() {
    static LinkChannel *current = nullptr;
    if (current && current->pid == ::getpid() && current->intact())
      return current;
    return current = make(); // the old one is left as it is
  }

  /// Links `object` (the caller holds lldMutex()); nullopt when no drain
  /// thread can be started (the caller links through files).
  std::optional<Expected<std::vector<char>>> link(ArrayRef<char> object) {
    using Result = Expected<std::vector<char>>;
    // Sized first (not emptied): the pages of the previous object are reused.
    if (::ftruncate(this->object, object.size()) != 0 || !writeAll(this->object, object, true))
      return Result(createStringError("cannot hand the object to lld"));
    std::vector<char> hsaco;
    bool readOk = true;
    if (outputBound(object) <= capacity) {
      // lld's one write of the code object fits in the pipe: read it after.
      Error linked = runLld(objectPath, outPath);
      readOk = readAvailable(hsaco); // lld has returned: all it wrote fitted
      return finish(std::move(linked), readOk, std::move(hsaco));
    }
    std::thread drain;
    try {
      drain = std::thread([&] { readOk = drainOne(hsaco); });
    } catch (const std::system_error &) {
      return std::nullopt;
    }
    Error linked = runLld(objectPath, outPath);
    // lld has written everything it will write (or failed): drain the rest.
    char one = 1;
    bool stopped = writeAll(stopWrite, ArrayRef<char>(&one, 1), false);
    (void)stopped; // the stop pipe is empty between links: a byte always fits
    drain.join();
    return finish(std::move(linked), readOk, std::move(hsaco));
  }

  /// The result of a link from lld's error, whether the pipe was read
  /// and what was read.
  Expected<std::vector<char>> finish(Error linked, bool readOk, std::vector<char> hsaco) {
    using Result = Expected<std::vector<char>>;
    if (!readOk)
      pid = 0; // what is left in the pipe is unknown: a new channel next time
    if (linked)
      return Result(std::move(linked));
    if (!readOk)
      return Result(createStringError("cannot read the linked code object"));
    if (hsaco.empty())
      return Result(createStringError("lld wrote no code object"));
    return Result(std::move(hsaco));
  }
};
#endif
} // namespace

Expected<std::vector<char>> linkObject(ArrayRef<char> object) {
#if defined(__linux__)
  {
    std::lock_guard<ForkSafeMutex> lock(lldMutex());
    if (LinkChannel *c = LinkChannel::get())
      if (auto r = c->link(object))
        return std::move(*r);
  }
#endif
  return linkThroughFiles(object);
}

} // namespace aster::target
