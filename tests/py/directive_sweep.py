"""Edge-operand assembly for every directive llvm-mc-22 accepts for AMDGPU.

`cases()` yields (name, text): one directive with one edge operand (negative,
zero, 2^31-1, 2^32, 2^63, a huge count, missing, non-numeric, an expression
with an undefined symbol) in a small kernel. test_directive_sweep.py runs each
through `aster.assemble` and `aster.raise_asm` in a child process: every case
must return or raise a clean error quickly, and the process must stay usable.
"""

EDGES = ("-1", "-16", "0", "1", "2147483647", "4294967296", "9223372036854775808",
         "(1<<62)", "", "abc", "undefined_sym+1", "1/0", "\"s\"")

# Directive -> operand templates ({} is the edge operand).
DATA = (".byte", ".short", ".hword", ".value", ".2byte", ".word", ".long", ".int",
        ".4byte", ".quad", ".8byte", ".octa", ".single", ".float", ".double",
        ".sleb128", ".uleb128")
STRINGS = (".ascii", ".asciz", ".string")
ALIGN = (".align", ".balign", ".balignw", ".balignl", ".p2align", ".p2alignw", ".p2alignl")
FILL = (".skip", ".space", ".zero")
SYMBOL = (".globl", ".global", ".weak", ".local", ".protected", ".hidden", ".internal")
SECTION = (".text", ".data", ".bss", ".previous", ".popsection")
COND = (".if", ".ifne", ".ifgt", ".ifge", ".iflt", ".ifle", ".ifdef", ".ifndef",
        ".ifb", ".ifnb")
AMDHSA_FIELDS = (
    ".amdhsa_group_segment_fixed_size", ".amdhsa_private_segment_fixed_size",
    ".amdhsa_kernarg_size", ".amdhsa_user_sgpr_count", ".amdhsa_next_free_vgpr",
    ".amdhsa_next_free_sgpr", ".amdhsa_accum_offset", ".amdhsa_reserve_vcc",
    ".amdhsa_user_sgpr_kernarg_segment_ptr", ".amdhsa_system_sgpr_workgroup_id_x",
    ".amdhsa_system_vgpr_workitem_id", ".amdhsa_float_round_mode_32",
    ".amdhsa_float_denorm_mode_16_64", ".amdhsa_dx10_clamp", ".amdhsa_ieee_mode",
    ".amdhsa_exception_int_div_zero", ".amdhsa_tg_split", ".amdhsa_named_barrier_count",
    ".amdhsa_uses_dynamic_stack", ".amdhsa_inst_pref_size")


def _kernel(body, pre=""):
    return f"\t.text\n{pre}\t.globl k\n\t.p2align 8\n\t.type k,@function\nk:\n{body}\ts_endpgm\n"


def _descriptor(fields):
    return ("\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel k\n"
            "\t\t.amdhsa_next_free_vgpr 1\n\t\t.amdhsa_next_free_sgpr 1\n"
            "\t\t.amdhsa_accum_offset 4\n" + fields + "\t.end_amdhsa_kernel\n")


def cases():
    for e in EDGES:
        for d in DATA + STRINGS:
            yield f"{d} {e}", _kernel("", pre=f"\t.data\nx:\n\t{d} {e}\n")
        for d in ALIGN:
            yield f"{d} {e}", _kernel(f"\t{d} {e}\n")
            # After a partial word of code: s_nop padding cannot reach it.
            yield f".byte; {d} {e}", _kernel(f"\ts_nop 0\n\t.byte 1\n\t{d} {e}\n")
            yield f"{d} 4, {e}", _kernel(f"\t{d} 4, {e}\n")
            yield f"{d} 4,,{e}", _kernel(f"\t{d} 4,,{e}\n")
        for d in FILL:
            yield f"{d} {e}", _kernel(f"\t{d} {e}\n")
            yield f"{d} 4, {e}", _kernel(f"\t{d} 4, {e}\n")
            yield f".bss {d} {e}", _kernel("", pre=f"\t.bss\nz:\n\t{d} {e}\n")
        yield f".fill {e}", _kernel(f"\t.fill {e}, 4, 0\n")
        yield f".fill 1, {e}", _kernel(f"\t.fill 1, {e}, 0\n")
        yield f".fill 1, 4, {e}", _kernel(f"\t.fill 1, 4, {e}\n")
        yield f".org {e}", _kernel(f"\t.org {e}\n")
        yield f".org {e}, 1", _kernel(f"\t.org {e}, 1\n")
        yield f".rept {e}", _kernel(f"\t.rept {e}\n\ts_nop 0\n\t.endr\n")
        yield f".rept {e} nested", _kernel(
            f"\t.rept {e}\n\t.rept {e}\n\ts_nop 0\n\t.endr\n\t.endr\n")
        yield f".irp {e}", _kernel(f"\t.irp x, {e}, 1\n\ts_nop \\x\n\t.endr\n")
        yield f".irpc {e}", _kernel(f"\t.irpc x, {e}\n\ts_nop \\x\n\t.endr\n")
        for d in COND:
            yield f"{d} {e}", _kernel(f"\t{d} {e}\n\ts_nop 0\n\t.else\n\ts_nop 1\n\t.endif\n")
        yield f".set {e}", _kernel(f"\t.set n, {e}\n\ts_nop n\n")
        yield f".equ {e}", _kernel(f"\t.equ n, {e}\n\t.rept n\n\ts_nop 0\n\t.endr\n")
        yield f"= {e}", _kernel(f"\tn = {e}\n\t.fill n, 1, 0\n")
        yield f".size {e}", _kernel("", pre=f"\t.size k, {e}\n")
        yield f".comm {e}", _kernel("", pre=f"\t.comm c, {e}, 4\n")
        yield f".comm 4, {e}", _kernel("", pre=f"\t.comm c, 4, {e}\n")
        yield f".lcomm {e}", _kernel("", pre=f"\t.lcomm c, {e}\n")
        yield f".amdgpu_lds {e}", _kernel("", pre=f"\t.amdgpu_lds lds, {e}, 16\n")
        yield f".amdgpu_lds 4, {e}", _kernel("", pre=f"\t.amdgpu_lds lds, 4, {e}\n")
        yield f".section {e}", _kernel("", pre=f"\t.section {e}\n")
        yield f".subsection {e}", _kernel("", pre=f"\t.subsection {e}\n")
        yield f".amdhsa_code_object_version {e}", (
            f"\t.amdhsa_code_object_version {e}\n" + _kernel("") + _descriptor(""))
        yield f".macro {e}", _kernel(f"\t.macro m a={e}\n\ts_nop \\a\n\t.endm\n\tm\n\tm {e}\n")
        for f in AMDHSA_FIELDS:
            yield f"{f} {e}", _kernel("") + _descriptor(f"\t\t{f} {e}\n")
    for d in SYMBOL + SECTION:
        yield f"{d}", _kernel("", pre=f"\t{d}\n")
        yield f"{d} undefined", _kernel("", pre=f"\t{d} undefined_sym\n")
    yield ".type", _kernel("", pre="\t.type k, @bogus\n")
    yield ".incbin missing", _kernel("", pre="\t.data\n\t.incbin \"no-such-file.bin\"\n")
    yield ".err", _kernel("\t.err\n")
    yield ".error", _kernel("\t.error \"stop\"\n")
    yield ".print", _kernel("\t.print \"hello\"\n")
    yield ".endr alone", _kernel("\t.endr\n")
    yield ".endm alone", _kernel("\t.endm\n")
    yield ".endif alone", _kernel("\t.endif\n")
    yield ".rept unterminated", _kernel("\t.rept 2\n\ts_nop 0\n")
    yield ".if unterminated", _kernel("\t.if 1\n\ts_nop 0\n")
    yield ".macro recursive", _kernel("\t.macro m\n\tm\n\t.endm\n\tm\n")
    yield ".macro unterminated", _kernel("\t.macro m\n\ts_nop 0\n")
    yield ".amdgcn_target bogus", "\t.amdgcn_target \"bogus\"\n" + _kernel("")
    yield ".amdgpu_metadata unterminated", _kernel("") + "\t.amdgpu_metadata\n---\n"
    yield ".amdhsa_kernel unterminated", _kernel("") + "\t.rodata\n\t.amdhsa_kernel k\n"
    yield ".amdhsa_kernel no fields", _kernel("") + "\t.rodata\n\t.amdhsa_kernel k\n\t.end_amdhsa_kernel\n"
    yield ".p2align issue 28", "\t.text\n\t.p2align\t-1\nk:\n\ts_endpgm\n"
