"""Build aster's SASS corpus on a machine with nvcc, nvdisasm and cuobjdump.

usage: make_corpus.py OUT_DIR
1. Writes each kernel of corpus_kernels.py to its own .cu and compiles it with
   `nvcc -cubin -arch=sm_90a -O3` (failures are listed, not fatal).
2. Extracts the sm_90 cubins inside PyTorch's CUDA library
   (`cuobjdump -xelf sm_90`), keeps a fixed sample (seeded) of the small ones.
3. Disassembles every cubin with `nvdisasm -hex` (instruction text and both
   64-bit words) and `nvdisasm -hex -raw` (no aliases), and `cuobjdump -elf`
   for the own kernels (.nv.info attribute names: the oracle for aster's reader).
4. Packs OUT_DIR/own.tar.xz (cubin, .sass, .raw.sass, .elf.txt) and
   OUT_DIR/torch.tar.xz (cubin, .sass).
Needs: nvcc, nvdisasm, cuobjdump, torch (for the library path).
"""
import concurrent.futures as cf
import glob
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_kernels as ck  # noqa: E402


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True, **kw)


def disasm(cubin, raw=True):
    base = cubin[:-6]
    a = sh(f'nvdisasm -hex {cubin} > {base}.sass')
    b = sh(f'nvdisasm -hex -raw {cubin} > {base}.raw.sass') if raw else a
    return a.returncode == 0 and b.returncode == 0, (a.stderr + b.stderr)[:300]


def main():
    out = sys.argv[1]
    t0 = time.time()
    log = open(os.path.join(out, 'corpus_log.txt'), 'w')
    print(sh('nvcc --version; nvdisasm --version; nvidia-smi -L').stdout, file=log)
    tmp = tempfile.gettempdir()
    own = os.path.join(tmp, 'sass_own')
    os.makedirs(own, exist_ok=True)

    def build(k):
        cu = f'{own}/{k["name"]}.cu'
        open(cu, 'w').write('#include <cuda_fp16.h>\n' + k['src'])
        r = sh(f'nvcc -cubin -arch=sm_90a -O3 -o {own}/{k["name"]}.cubin {cu}')
        if r.returncode:
            return k['name'], r.stderr[-400:]
        ok, err = disasm(f'{own}/{k["name"]}.cubin')
        return k['name'], None if ok else err

    with cf.ThreadPoolExecutor(16) as ex:
        for name, err in ex.map(build, ck.KERNELS):
            if err:
                print('FAIL', name, err, file=log)
    for f in sorted(glob.glob(f'{own}/*.cubin'))[:40]:
        sh(f'cuobjdump -elf {f} > {f[:-6]}.elf.txt')
    print(f'own done {time.time() - t0:.0f}s', file=log, flush=True)
    sh(f'cd {tmp} && tar -c --exclude="*.cu" sass_own | xz -T16 -3 > {out}/own.tar.xz')
    print(f'own packed {time.time() - t0:.0f}s', file=log, flush=True)

    import torch
    lib = os.path.join(os.path.dirname(torch.__file__), 'lib')
    tdir = os.path.join(tmp, 'sass_torch')
    os.makedirs(tdir, exist_ok=True)
    for so in ('libtorch_cuda.so', 'libc10_cuda.so'):
        r = sh(f'cd {tdir} && timeout 200 cuobjdump -xelf sm_90 {lib}/{so}')
        print(so, r.returncode, r.stdout[-200:], r.stderr[-300:], file=log, flush=True)
    cubins = sorted(f for f in glob.glob(f'{tdir}/*.cubin') if os.path.getsize(f) < 100_000)
    print('torch sm_90 cubins <200KB:', len(cubins), 'all:', len(glob.glob(f'{tdir}/*')), file=log)
    random.seed(30)
    sample = random.sample(cubins, min(400, len(cubins)))
    total, keep = 0, []
    for f in sample:
        if total > 8_000_000:
            break
        total += os.path.getsize(f)
        keep.append(f)
    with cf.ThreadPoolExecutor(16) as ex:
        res = list(ex.map(lambda f: disasm(f, raw=False), keep))
    print('torch disasm failures:', sum(not ok for ok, _ in res), file=log)
    for f in set(glob.glob(f'{tdir}/*')) - {k[:-6] + e for k in keep for e in ('.cubin', '.sass')}:
        os.remove(f)
    sh(f'cd {tmp} && tar -c sass_torch | xz -T16 -3 > {out}/torch.tar.xz')
    print(f'torch packed {len(keep)} {time.time() - t0:.0f}s', file=log, flush=True)
    log.close()


if __name__ == '__main__':
    main()
