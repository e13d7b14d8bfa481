"""The corpus of CUDA kernels aster's SASS table is learned from, with a NumPy reference each.

Each kernel is one `extern "C" __global__` function compiled alone for sm_90a
(tools/sass/make_corpus.py on a machine with nvcc).  Kernels differ in
operation, type, constants and structure (predication, loops, shared memory,
shuffles, votes, atomics, barriers, tensor cores, bulk copies) so that the
table generator sees each instruction with varied operands.  `ref(inputs)`
gives the expected outputs from NumPy (the outside oracle for device runs);
`args` lists the parameters: ('f32', 'in'|'out'|'inout'), ..., ('i32', 'n').
Every kernel is launched with `grid` x `block` threads over `n` elements.
Needs: NumPy.  Guarantees: names are unique and valid C identifiers.
"""
import numpy as np

N = 4096
BLOCK = 256

KERNELS = []


def kernel(name, src, args, ref, n=N, grid=None, block=BLOCK, tol=1e-5, gen=None):
    KERNELS.append(dict(name=name, src=src, args=args, ref=ref, n=n,
                        grid=grid or (n + block - 1) // block, block=block, tol=tol,
                        gen=gen or {}))


# --------------------------------------------------------------- elementwise
C_TYPES = {'f32': 'float', 'i32': 'int', 'u32': 'unsigned', 'f64': 'double',
           'f16': '__half'}


def _ew(name, t, expr, ref, ins=2, tol=1e-5, gen=None, loop=None, to=None):
    ct = C_TYPES[t]
    to = to or t
    cto = C_TYPES[to]
    params = ', '.join(f'const {ct}* __restrict__ {v}' for v in 'abc'[:ins])
    loads = ' '.join(f'{ct} {x} = {v}[i];' for x, v in zip('xyz', 'abc'[:ins]))
    if loop == 'stride':
        body = (f'for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; '
                f'i += blockDim.x * gridDim.x) {{ {loads} o[i] = {expr}; }}')
        grid = 4
    elif loop == 'unroll4':
        body = (f'int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;\n'
                f'#pragma unroll\n  for (int k = 0; k < 4; ++k) {{ int i = base + k; '
                f'if (i < n) {{ {loads} o[i] = {expr}; }} }}')
        grid = N // BLOCK // 4
    else:
        body = (f'int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
                f'  if (i < n) {{ {loads} o[i] = {expr}; }}')
        grid = None
    src = (f'extern "C" __global__ void {name}({params}, {cto}* __restrict__ o, int n) {{\n'
           f'  {body}\n}}\n')
    args = [(t, 'in')] * ins + [(to, 'out'), ('i32', 'n')]
    kernel(name, src, args, ref, grid=grid, tol=tol, gen=gen)


F32_EXPRS = [
    ('add', 'x + y', lambda x, y: x + y),
    ('sub', 'x - y', lambda x, y: x - y),
    ('mul', 'x * y', lambda x, y: x * y),
    ('fma', 'x * y + x', lambda x, y: x * y + x),
    ('max', 'fmaxf(x, y)', np.maximum),
    ('min', 'fminf(x, y)', np.minimum),
    ('abs', 'fabsf(x - y)', lambda x, y: np.abs(x - y)),
    ('div', 'x / y', lambda x, y: x / y),
    ('sqrt', 'sqrtf(x)', lambda x, y: np.sqrt(x)),
    ('rsqrt', 'rsqrtf(x)', lambda x, y: 1 / np.sqrt(x)),
    ('exp', 'expf(x)', lambda x, y: np.exp(x)),
    ('exp2', 'exp2f(x)', lambda x, y: np.exp2(x)),
    ('log', 'logf(x)', lambda x, y: np.log(x)),
    ('sin', 'sinf(x)', lambda x, y: np.sin(x)),
    ('cos', '__cosf(x)', lambda x, y: np.cos(x)),
    ('tanh', 'tanhf(x)', lambda x, y: np.tanh(x)),
    ('sel', 'x > y ? x : y * 2.0f', lambda x, y: np.where(x > y, x, y * 2)),
    ('floor', 'floorf(x * 3.0f)', lambda x, y: np.floor(x * 3)),
    ('rcp', '1.0f / x', lambda x, y: 1 / x),
    ('sat', '__saturatef(x - y)', lambda x, y: np.clip(x - y, 0, 1)),
    ('i2f', '(float)(int)(x * 100.0f)', lambda x, y: np.trunc(x * np.float32(100))),
]
for nm, e, r in F32_EXPRS:
    for loop in (None, 'stride', 'unroll4'):
        _ew(f'f32_{nm}_{loop or "flat"}', 'f32', e,
            (lambda r: lambda x, y: r(x, y))(r), tol=2e-5 if nm not in ('cos',) else 1e-3,
            loop=loop)

# Constants: the same shape with many immediates (teaches the immediate fields).
F32_CONSTS = [0.5, 1.5, 2.0, 3.25, -1.0, 0.125, 7.0, 100.0, 1e-3, 12345.0, -0.75,
              0.333333, 6.5, 1024.0, 0.1, 42.0]
for i, k in enumerate(F32_CONSTS):
    _ew(f'f32_axpy_c{i}', 'f32', f'x * {k!r}f + y',
        (lambda k: lambda x, y: x * np.float32(k) + y)(k))
    _ew(f'f32_addc_c{i}', 'f32', f'x + {k!r}f',
        (lambda k: lambda x, y: x + np.float32(k))(k))

I32_EXPRS = [
    ('add', 'x + y', lambda x, y: x + y),
    ('sub', 'x - y', lambda x, y: x - y),
    ('mul', 'x * y', lambda x, y: x * y),
    ('mad', 'x * y + x', lambda x, y: x * y + x),
    ('xor', 'x ^ y', lambda x, y: x ^ y),
    ('and', 'x & y', lambda x, y: x & y),
    ('or', 'x | y', lambda x, y: x | y),
    ('shl', 'x << (y & 31)', lambda x, y: x << (y & 31)),
    ('shr', 'x >> (y & 31)', lambda x, y: x >> (y & 31)),
    ('min', 'min(x, y)', np.minimum),
    ('max', 'max(x, y)', np.maximum),
    ('abs', 'abs(x - y)', lambda x, y: np.abs(x - y)),
    ('div7', 'x / 7', lambda x, y: np.trunc(x / 7).astype(np.int32)),
    ('mod13', 'x % 13', lambda x, y: np.fmod(x, 13)),
    ('popc', '__popc(x)', lambda x, y: np.array([bin(v & 0xffffffff).count('1') for v in x.tolist()], np.int32)),
    ('clz', '__clz(x)', lambda x, y: np.array([32 - (v & 0xffffffff).bit_length() for v in x.tolist()], np.int32)),
    ('sel', 'x > y ? x - y : y', lambda x, y: np.where(x > y, x - y, y)),
    ('not', '~x + (y >> 2)', lambda x, y: ~x + (y >> 2)),
    ('f2i', '(int)((float)x * 0.5f)', lambda x, y: np.trunc(x.astype(np.float32) * np.float32(0.5)).astype(np.int32)),
    ('hi', '__mulhi(x, y)', lambda x, y: ((x.astype(np.int64) * y.astype(np.int64)) >> 32).astype(np.int32)),
]
for nm, e, r in I32_EXPRS:
    for loop in (None, 'stride'):
        _ew(f'i32_{nm}_{loop or "flat"}', 'i32', e, r, tol=0, loop=loop)
I32_CONSTS = [1, 3, 7, 100, -5, 255, 4096, 12345, -77777, 65535, 0x7fff0000, 17, 31, 1000000]
for i, k in enumerate(I32_CONSTS):
    _ew(f'i32_addc_c{i}', 'i32', f'x + {k}', (lambda k: lambda x, y: x + np.int32(k))(k), tol=0)
    _ew(f'i32_madc_c{i}', 'i32', f'x * {k} + y',
        (lambda k: lambda x, y: (x.astype(np.int64) * k + y).astype(np.int32))(k), tol=0)
    _ew(f'i32_xorc_c{i}', 'i32', f'(x ^ {k}) & y', (lambda k: lambda x, y: (x ^ np.int32(k)) & y)(k), tol=0)

U32_EXPRS = [
    ('shr', 'x >> (y & 31)', lambda x, y: x >> (y & 31)),
    ('div', 'x / (y | 1)', lambda x, y: x // (y | 1)),
    ('mod', 'x % (y | 1)', lambda x, y: x % (y | 1)),
    ('brev', '__brev(x)', lambda x, y: np.array([int(f'{v:032b}'[::-1], 2) for v in x.tolist()], np.uint32)),
    ('funnel', '__funnelshift_l(x, y, 5)', lambda x, y: ((y << 5) | (x >> 27)).astype(np.uint32)),
    ('minu', 'min(x, y)', np.minimum),
    ('bfe', '(x >> 4) & 0xff', lambda x, y: (x >> 4) & 0xff),
    # __sad takes ints: |x - y| of the signed values (the unsigned-difference reference
    # failed on the H100 run of 2026-11-27; this one was not re-run)
    ('sad', '__sad(x, y, 3u)', lambda x, y: (np.abs(x.view(np.int32).astype(np.int64) - y.view(np.int32).astype(np.int64)) + 3).astype(np.uint32)),
]
for nm, e, r in U32_EXPRS:
    _ew(f'u32_{nm}', 'u32', e, r, tol=0)

F64_EXPRS = [
    ('add', 'x + y', lambda x, y: x + y),
    ('mul', 'x * y', lambda x, y: x * y),
    ('fma', 'fma(x, y, 0.5)', lambda x, y: x * y + 0.5),
    ('div', 'x / y', lambda x, y: x / y),
    ('sqrt', 'sqrt(x)', lambda x, y: np.sqrt(x)),
    ('max', 'fmax(x, y) * 3.0', lambda x, y: np.maximum(x, y) * 3),
    ('cvt', '(double)(float)x', lambda x, y: x.astype(np.float32).astype(np.float64)),
]
for nm, e, r in F64_EXPRS:
    _ew(f'f64_{nm}', 'f64', e, r, tol=1e-12)

F16_EXPRS = [
    ('add', '__hadd(x, y)', lambda x, y: x + y),
    ('mul', '__hmul(x, y)', lambda x, y: x * y),
    ('fma', '__hfma(x, y, x)', lambda x, y: x * y + x),
    ('max', '__hmax(x, y)', np.maximum),
    ('sub', '__hsub(x, y)', lambda x, y: x - y),
]
for nm, e, r in F16_EXPRS:
    _ew(f'f16_{nm}', 'f16', e, r, tol=2e-3)
_ew('f16_tof32', 'f16', '__half2float(x) * 2.5f + __half2float(y)',
    lambda x, y: x.astype(np.float32) * np.float32(2.5) + y.astype(np.float32), tol=1e-3, to='f32')
_ew('f32_tof16', 'f32', '__float2half(x * y)', lambda x, y: (x * y).astype(np.float16), tol=2e-3, to='f16')
_ew('f32_fma3', 'f32', 'fmaf(x, y, z)', lambda x, y, z: x * y + z, ins=3, tol=2e-5)
_ew('i32_mad3', 'i32', 'x * y + z', lambda x, y, z: x * y + z, ins=3, tol=0)

# ------------------------------------------------------- structured kernels
def _block_sum(x):
    return x.reshape(-1, BLOCK).sum(axis=1)


kernel('smem_reduce_f32', r'''
extern "C" __global__ void smem_reduce_f32(const float* __restrict__ a, float* __restrict__ o, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? a[i] : 0.0f;
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; __syncthreads(); }
  if (t == 0) o[blockIdx.x] = s[0];
}''', [('f32', 'in'), ('f32', 'out'), ('i32', 'n')], lambda a: _block_sum(a), tol=1e-4)

kernel('smem_reduce_i32', r'''
extern "C" __global__ void smem_reduce_i32(const int* __restrict__ a, int* __restrict__ o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? a[i] : 0;
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; __syncthreads(); }
  if (t == 0) o[blockIdx.x] = s[0];
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')], lambda a: _block_sum(a), tol=0)

for op, cexpr in (('down', '__shfl_down_sync(0xffffffffu, v, d)'),
                  ('xor', '__shfl_xor_sync(0xffffffffu, v, d)')):
    for t, ct, tol in (('f32', 'float', 1e-4), ('i32', 'int', 0)):
        nm = f'shfl_{op}_sum_{t}'
        kernel(nm, f'''
extern "C" __global__ void {nm}(const {ct}* __restrict__ a, {ct}* __restrict__ o, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  {ct} v = i < n ? a[i] : ({ct})0;
  for (int d = 16; d > 0; d >>= 1) v += {cexpr};
  if ((threadIdx.x & 31) == 0) o[i >> 5] = v;
}}''', [(t, 'in'), (t, 'out'), ('i32', 'n')],
               (lambda a: a.reshape(-1, 32).sum(axis=1)), tol=tol)

kernel('shfl_up_scan_i32', r'''
extern "C" __global__ void shfl_up_scan_i32(const int* __restrict__ a, int* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x & 31;
  int v = i < n ? a[i] : 0;
  for (int d = 1; d < 32; d <<= 1) { int u = __shfl_up_sync(0xffffffffu, v, d); if (l >= d) v += u; }
  if (i < n) o[i] = v;
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')],
       lambda a: np.cumsum(a.reshape(-1, 32), axis=1).reshape(-1).astype(np.int32), tol=0)

kernel('shfl_idx_bcast_f32', r'''
extern "C" __global__ void shfl_idx_bcast_f32(const float* __restrict__ a, float* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  o[i] = v + __shfl_sync(0xffffffffu, v, 7);
}''', [('f32', 'in'), ('f32', 'out'), ('i32', 'n')],
       lambda a: (a.reshape(-1, 32) + a.reshape(-1, 32)[:, 7:8]).reshape(-1))

kernel('vote_ballot_popc', r'''
extern "C" __global__ void vote_ballot_popc(const int* __restrict__ a, int* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = __ballot_sync(0xffffffffu, a[i] > 0);
  if ((threadIdx.x & 31) == 0) o[i >> 5] = __popc(b);
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')],
       lambda a: (a.reshape(-1, 32) > 0).sum(axis=1).astype(np.int32), tol=0)

kernel('vote_any_all', r'''
extern "C" __global__ void vote_any_all(const int* __restrict__ a, int* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i];
  int r = __any_sync(0xffffffffu, v > 900) * 2 + __all_sync(0xffffffffu, v > -990);
  if ((threadIdx.x & 31) == 0) o[i >> 5] = r;
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')],
       lambda a: ((a.reshape(-1, 32) > 900).any(axis=1) * 2 + (a.reshape(-1, 32) > -990).all(axis=1)).astype(np.int32), tol=0)

for op, fn, ref in (('add', 'atomicAdd', lambda a: np.array([a.sum()], np.int32)),
                    ('max', 'atomicMax', lambda a: np.array([a.max()], np.int32)),
                    ('min', 'atomicMin', lambda a: np.array([a.min()], np.int32)),
                    ('or', 'atomicOr', lambda a: np.array([np.bitwise_or.reduce(a)], np.int32))):
    nm = f'atomic_{op}_i32'
    kernel(nm, f'''
extern "C" __global__ void {nm}(const int* __restrict__ a, int* __restrict__ o, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {fn}(o, a[i]);
}}''', [('i32', 'in'), ('i32', 'inout'), ('i32', 'n')], ref, tol=0)

kernel('atomic_hist_smem', r'''
extern "C" __global__ void atomic_hist_smem(const int* __restrict__ a, int* __restrict__ o, int n) {
  __shared__ int h[16];
  if (threadIdx.x < 16) h[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&h[a[i] & 15], 1);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&o[threadIdx.x], h[threadIdx.x]);
}''', [('i32', 'in'), ('i32', 'inout'), ('i32', 'n')],
       lambda a: np.bincount(a & 15, minlength=16).astype(np.int32), tol=0)

kernel('atomic_add_f32', r'''
extern "C" __global__ void atomic_add_f32(const float* __restrict__ a, float* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&o[i & 63], a[i]);
}''', [('f32', 'in'), ('f32', 'inout'), ('i32', 'n')],
       lambda a: a.reshape(-1, 64).sum(axis=0), tol=1e-4)

kernel('transpose_smem', r'''
extern "C" __global__ void transpose_smem(const float* __restrict__ a, float* __restrict__ o, int n) {
  __shared__ float t[32][33];
  int bx = blockIdx.x & 1, by = blockIdx.x >> 1;  // 64x64 matrix, 32x32 tiles, block 32x8
  int x = threadIdx.x & 31, y = threadIdx.x >> 5;
  for (int j = 0; j < 32; j += 8) t[y + j][x] = a[(by * 32 + y + j) * 64 + bx * 32 + x];
  __syncthreads();
  for (int j = 0; j < 32; j += 8) o[(bx * 32 + y + j) * 64 + by * 32 + x] = t[x][y + j];
}''', [('f32', 'in'), ('f32', 'out'), ('i32', 'n')],
       lambda a: a.reshape(64, 64).T.reshape(-1), grid=4, tol=0)

for k in (4, 8, 16, 33):
    nm = f'loop_dot_{k}'
    kernel(nm, f'''
extern "C" __global__ void {nm}(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * {k} + {k} > n) return;
  float s = 0.0f;
  for (int j = 0; j < {k}; ++j) s += a[i * {k} + j] * b[i * {k} + j];
  o[i] = s;
}}''', [('f32', 'in'), ('f32', 'in'), ('f32', 'out'), ('i32', 'n')],
           (lambda k: lambda a, b: (a[:len(a) // k * k] * b[:len(a) // k * k]).reshape(-1, k).sum(axis=1))(k),
           tol=1e-4)

kernel('loop_while_collatz', r'''
extern "C" __global__ void loop_while_collatz(const int* __restrict__ a, int* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = (a[i] & 1023) + 1; int s = 0;
  while (v != 1 && s < 500) { v = (v & 1) ? 3 * v + 1 : v >> 1; ++s; }
  o[i] = s;
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')], None, tol=0)


def _collatz(a):
    out = []
    for v in ((a & 1023) + 1).tolist():
        s = 0
        while v != 1 and s < 500:
            v = 3 * v + 1 if v & 1 else v >> 1
            s += 1
        out.append(s)
    return np.array(out, np.int32)


KERNELS[-1]['ref'] = _collatz

kernel('pred_branchy', r'''
extern "C" __global__ void pred_branchy(const int* __restrict__ a, const int* __restrict__ b, int* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i], r;
  if (x > 0) { if (y > 0) r = x + y; else r = x - y; }
  else if (y < -100) r = x * 3; else r = y ^ 5;
  o[i] = r;
}''', [('i32', 'in'), ('i32', 'in'), ('i32', 'out'), ('i32', 'n')],
       lambda x, y: np.where(x > 0, np.where(y > 0, x + y, x - y), np.where(y < -100, x * 3, y ^ 5)), tol=0)

kernel('wmma_f16_16x16x16', r'''
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void wmma_f16_16x16x16(const __half* __restrict__ a, const __half* __restrict__ b, float* __restrict__ o, int n) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(o, fc, 16, wmma::mem_row_major);
}''', [('f16', 'in'), ('f16', 'in'), ('f32', 'out'), ('i32', 'n')],
       lambda a, b: (a[:256].astype(np.float32).reshape(16, 16) @ b[:256].astype(np.float32).reshape(16, 16)).reshape(-1),
       n=256, grid=1, block=32, tol=1e-2)

kernel('cp_async_copy', r'''
#include <cuda_pipeline.h>
extern "C" __global__ void cp_async_copy(const float* __restrict__ a, float* __restrict__ o, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  __pipeline_memcpy_async(&s[t], &a[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  o[i] = s[255 - t] * 2.0f;
}''', [('f32', 'in'), ('f32', 'out'), ('i32', 'n')],
       lambda a: (a.reshape(-1, 256)[:, ::-1] * 2).reshape(-1))

kernel('bulk_copy_tma', r'''
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void bulk_copy_tma(const float* __restrict__ a, float* __restrict__ o, int n) {
  __shared__ alignas(128) float s[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    cuda::memcpy_async(s, a + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(s)), bar);
  bar.arrive_and_wait();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = s[threadIdx.x] + 1.0f;
}''', [('f32', 'in'), ('f32', 'out'), ('i32', 'n')], lambda a: a + 1)

kernel('dyn_smem_rev', r'''
extern "C" __global__ void dyn_smem_rev(const int* __restrict__ a, int* __restrict__ o, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = a[i];
  __syncthreads();
  o[i] = s[blockDim.x - 1 - t];
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')],
       lambda a: a.reshape(-1, 256)[:, ::-1].reshape(-1), tol=0, gen={'smem': 1024})

kernel('grid_ids_2d', r'''
extern "C" __global__ void grid_ids_2d(const int* __restrict__ a, int* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = a[i] + (int)(threadIdx.x * 3 + blockIdx.x * 1000 + (blockDim.x << 20));
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')],
       lambda a: a + (np.arange(len(a)) % 256 * 3 + np.arange(len(a)) // 256 * 1000 + (256 << 20)).astype(np.int32), tol=0)

kernel('warp_match_any', r'''
extern "C" __global__ void warp_match_any(const int* __restrict__ a, int* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __match_any_sync(0xffffffffu, a[i] & 3);
  o[i] = __popc(m);
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')], None, tol=0)


def _match(a):
    g = (a & 3).reshape(-1, 32)
    return np.array([[int((row == v).sum()) for v in row] for row in g], np.int32).reshape(-1)


KERNELS[-1]['ref'] = _match

kernel('redux_sync_sum', r'''
extern "C" __global__ void redux_sync_sum(const int* __restrict__ a, int* __restrict__ o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int r = __reduce_add_sync(0xffffffffu, a[i]);
  if ((threadIdx.x & 31) == 0) o[i >> 5] = r;
}''', [('i32', 'in'), ('i32', 'out'), ('i32', 'n')],
       lambda a: a.reshape(-1, 32).sum(axis=1).astype(np.int32), tol=0)

NP_TYPES = {'f32': np.float32, 'i32': np.int32, 'u32': np.uint32, 'f64': np.float64,
            'f16': np.float16}


def inputs(k, seed=0):
    """Deterministic inputs for kernel `k`: arrays for 'in'/'inout' args (inout zeroed
    or set to the identity of the atomic), in the order of the args."""
    rng = np.random.default_rng(seed + sum(map(ord, k['name'])))
    out = []
    for t, role in k['args']:
        if role == 'n':
            continue
        if role == 'in':
            if t in ('f32', 'f64', 'f16'):
                out.append(rng.uniform(0.5, 2.0, k['n']).astype(NP_TYPES[t]))
            elif t == 'u32':
                out.append(rng.integers(0, 2**32, k['n'], dtype=np.uint64).astype(np.uint32))
            else:
                out.append(rng.integers(-1000, 1000, k['n']).astype(np.int32))
        else:
            out.append(None)
    return out


def out_init(k):
    """Initial contents of 'out'/'inout' arrays (size from the reference)."""
    nm = k['name']
    if nm == 'atomic_max_i32':
        return np.array([-2**31], np.int32)
    if nm == 'atomic_min_i32':
        return np.array([2**31 - 1], np.int32)
    return None

# Hopper warpgroup MMA (corpus only: no reference, the layout is not modelled).
kernel('wgmma_m64n8k16_f16', r'''
extern "C" __global__ void wgmma_m64n8k16_f16(const __half* __restrict__ a, const __half* __restrict__ b, float* __restrict__ o, int n) {
  __shared__ alignas(128) __half sa[64 * 16];
  __shared__ alignas(128) __half sb[8 * 16];
  for (int i = threadIdx.x; i < 64 * 16; i += 128) sa[i] = a[i];
  for (int i = threadIdx.x; i < 8 * 16; i += 128) sb[i] = b[i];
  __syncthreads();
  unsigned long long da = ((unsigned long long)((unsigned)__cvta_generic_to_shared(sa) >> 4) & 0x3fff) | (8ull << 16) | (64ull << 32);
  unsigned long long db = ((unsigned long long)((unsigned)__cvta_generic_to_shared(sb) >> 4) & 0x3fff) | (8ull << 16) | (64ull << 32);
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("wgmma.fence.sync.aligned;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, 0, 1, 1, 0, 0;\n"
               "wgmma.commit_group.sync.aligned;\n"
               "wgmma.wait_group.sync.aligned 0;\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db));
  int t = threadIdx.x;
  o[t * 4 + 0] = d0; o[t * 4 + 1] = d1; o[t * 4 + 2] = d2; o[t * 4 + 3] = d3;
}''', [('f16', 'in'), ('f16', 'in'), ('f32', 'out'), ('i32', 'n')], None, n=1024, grid=1, block=128)
