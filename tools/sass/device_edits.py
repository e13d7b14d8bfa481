"""The edited and built kernels that run on the H100 (tools/sass/prepare_run.py), with the
NumPy expression each must match: `r` is the original kernel's reference, `x`, `y`
its first two inputs.  Each edit finds its instruction by text (so it fails loudly
if the corpus changes) and uses only aster.sass's public editing API.
Needs: aster.sass (or tools/sass/standalone.py).  Guarantees: edit(module) edits in place.
"""
import re


def _find(k, pattern):
    hits = [i for i, x in enumerate(k.insts) if x.text and re.fullmatch(pattern, x.text)]
    if len(hits) != 1:
        raise AssertionError(f'{k.name}: {len(hits)} instructions match {pattern!r}')
    return hits[0]


def imm_int(m, sass):                     # x + 100 -> x + 0x1234
    k = m.kernels['i32_addc_c3']
    i = _find(k, r'IADD3 (R\d+), (R\d+), 0x64, RZ')
    k.set(i, re.sub('0x64', '0x1234', k.insts[i].text))


def imm_float(m, sass):                   # x * 1.5 + y -> x * -2.25 + y
    k = m.kernels['f32_axpy_c1']
    i = _find(k, r'FFMA R\d+, R\d+, 1\.5, R\d+')
    k.set(i, k.insts[i].text.replace('1.5', '-2.25'))


def opcode(m, sass):                      # x + y -> x * y
    k = m.kernels['f32_add_flat']
    i = _find(k, r'FADD R\d+, R\d+, R\d+')
    k.set(i, k.insts[i].text.replace('FADD', 'FMUL'))


def register(m, sass):                    # x + y -> y + y (the operand loaded from b twice)
    k = m.kernels['i32_add_flat']
    ld_b = _find(k, r'LDG\.E\.CONSTANT (R\d+), desc\[UR4\]\[R4\.64\]')
    rb = re.match(r'LDG\.E\.CONSTANT (R\d+)', k.insts[ld_b].text).group(1)
    i = _find(k, r'IADD3 R\d+, R\d+, R\d+, RZ')
    d, s1, s2 = re.findall(r'R\d+', k.insts[i].text)[:3]
    k.set(i, f'IADD3 {d}, {rb}, {rb}, RZ')


def insert(m, sass):                      # x + y -> (x + y) + 1
    k = m.kernels['f32_add_flat']
    i = _find(k, r'FADD R\d+, R\d+, R\d+')
    d = k.insts[i].text.split()[1].rstrip(',')
    k.insert(i + 1, f'FADD {d}, {d}, 1', sass.barriers.conservative())


def delete(m, sass):                      # drop the unused stack-pointer load: same results
    k = m.kernels['f32_add_flat']
    k.delete(_find(k, r'LDC R1, c\[0x0\]\[0x28\]'))


def shift_loop(m, sass):                  # code before a loop: branch offsets, EXIT offsets move
    k = m.kernels['i32_mul_stride']
    k.insert(1, 'IMAD.MOV.U32 R14, RZ, RZ, 0x7', sass.barriers.conservative())


def more_registers(m, sass):              # result through R40: REGCOUNT must grow
    k = m.kernels['i32_add_flat']
    i = _find(k, r'IADD3 R\d+, R\d+, R\d+, RZ')
    d = k.insts[i].text.split()[1].rstrip(',')
    k.set(i, k.insts[i].text.replace(d + ',', 'R40,', 1))
    k.insert(i + 1, f'IMAD.MOV.U32 {d}, RZ, RZ, R40', sass.barriers.conservative())


def low_register(m, sass):               # the same through R11 (< REGCOUNT 12): no count change
    k = m.kernels['i32_add_flat']
    i = _find(k, r'IADD3 R\d+, R\d+, R\d+, RZ')
    d = k.insts[i].text.split()[1].rstrip(',')
    k.set(i, k.insts[i].text.replace(d + ',', 'R11,', 1))
    k.insert(i + 1, f'IMAD.MOV.U32 {d}, RZ, RZ, R11', sass.barriers.conservative())


def more_registers_48(m, sass):           # R40 with REGCOUNT rounded up to 48
    more_registers(m, sass)
    m.set_regcount('i32_add_flat', 48)


def grow100(m, sass):                     # x + y -> x + y + 100: 100 instructions more,
    k = m.kernels['i32_add_flat']          # past the padding: .text grows (layout.py)
    i = _find(k, r'IADD3 R\d+, R\d+, R\d+, RZ')
    d = k.insts[i].text.split()[1].rstrip(',')
    for j in range(100):
        k.insert(i + 1 + j, f'IADD3 {d}, {d}, 0x1, RZ', sass.barriers.conservative())


def grow_loop(m, sass):                   # 40 instructions before a loop: grows, branches move
    k = m.kernels['i32_mul_stride']
    for _ in range(40):
        k.insert(1, 'IMAD.MOV.U32 R14, RZ, RZ, 0x7', sass.barriers.conservative())


def extra_exit(m, sass):                  # a never-taken EXIT: EXIT_INSTR_OFFSETS grows
    k = m.kernels['f32_add_flat']
    k.insert(1, '@!PT EXIT', sass.barriers.conservative())


EDITS = {  # file stem -> (edit, kernel file, reference)
    'i32_addc_c3__imm_int': (imm_int, 'i32_addc_c3', 'x + np.int32(0x1234)'),
    'f32_axpy_c1__imm_float': (imm_float, 'f32_axpy_c1', 'x * np.float32(-2.25) + y'),
    'f32_add_flat__opcode': (opcode, 'f32_add_flat', 'x * y'),
    'i32_add_flat__register': (register, 'i32_add_flat', 'y + y'),
    'f32_add_flat__insert': (insert, 'f32_add_flat', 'x + y + np.float32(1)'),
    'f32_add_flat__delete': (delete, 'f32_add_flat', 'r'),
    'i32_mul_stride__shift_loop': (shift_loop, 'i32_mul_stride', 'r'),
    'i32_add_flat__more_registers': (more_registers, 'i32_add_flat', 'r'),
    'i32_add_flat__low_register': (low_register, 'i32_add_flat', 'r'),
    'i32_add_flat__more_registers_48': (more_registers_48, 'i32_add_flat', 'r'),
    'i32_add_flat__grow100': (grow100, 'i32_add_flat', 'x + y + np.int32(100)'),
    'i32_mul_stride__grow_loop': (grow_loop, 'i32_mul_stride', 'r'),
    'f32_add_flat__extra_exit': (extra_exit, 'f32_add_flat', 'r'),
}


def built(m, sass):
    """o[i] = a[i] * b[i] + 3 for i < n, written with the builder into f32_add_flat's cubin."""
    b = sass.KernelBuilder()
    b.S2R('R0', 'SR_TID.X')
    b.S2UR('UR4', 'SR_CTAID.X')
    b.LDC('R9', 'c[0x0][0x0]')
    b.IMAD('R9', 'R9', 'UR4', 'R0')
    b.ULDC('UR4', 'c[0x0][0x228]')
    b.ISETP_GE_AND('P0', 'PT', 'R9', 'UR4', 'PT')
    b.EXIT(pred='P0')
    b.LDC_64('R2', 'c[0x0][0x210]')
    b.ULDC_64('UR4', 'c[0x0][0x208]')
    b.LDC_64('R4', 'c[0x0][0x218]')
    b.LDC_64('R6', 'c[0x0][0x220]')
    b.IMAD_WIDE('R2', 'R9', '0x4', 'R2')
    b.IMAD_WIDE('R4', 'R9', '0x4', 'R4')
    b.IMAD_WIDE('R6', 'R9', '0x4', 'R6')
    b.LDG_E_CONSTANT('R3', 'desc[UR4][R2.64]')
    b.LDG_E_CONSTANT('R4', 'desc[UR4][R4.64]')
    b.FFMA('R9', 'R4', 'R3', '3')
    b.STG_E('desc[UR4][R6.64]', 'R9')
    b.EXIT()
    b.label('.L_end')
    b.BRA('`(.L_end)')
    b.into(m, 'f32_add_flat')


BUILT = {'f32_add_flat__built': (built, 'f32_add_flat', 'x * y + np.float32(3)')}
