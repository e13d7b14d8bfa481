"""Raising speed: µs per instruction of aster.raise_code_object and of
re-assembly (aster.compile) for code objects of 1k to 100k instructions.

The kernel is generated as text (a mix of VALU, SALU, loads/stores, DPP and
MFMA instructions in a loop body), assembled and linked by LLVM into a code
object, then raised and compiled back; the round trip is checked (same code
bytes). Prints min of `--runs` runs, in process CPU time (robust on a
shared machine; raising and compiling run on the calling thread). A raise
includes making its MLIR context (about 1.4 ms: the instruction table's
ops are registered in every new context), which weighs on the 1k size.
The body repeats 10 instruction texts, which raising copies from their first
op; `--distinct` varies registers and offsets instead (about 3 of 4 texts
distinct), the cost when nearly every instruction is new.
"""
import argparse
import time

import aster

BODY = [
    "v_add_f32_e32 v1, v2, v3", "v_mul_f32_e32 v4, 0x40490fdb, v1",
    "s_add_u32 s8, s8, 1", "global_load_dword v5, v[6:7], off offset:16",
    "v_mov_b32_dpp v8, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
    "v_fma_f32 v9, v1, v4, v5", "s_waitcnt vmcnt(0)",
    "v_mfma_f32_16x16x16_f16 a[0:3], v[10:11], v[12:13], a[0:3]",
    "ds_write_b32 v14, v9 offset:64", "s_cmp_lg_u32 s8, 0",
]


def distinct_line(i):
    a, b, c = i % 97, (i // 97) % 89 + 100, (i // 7) % 50 + 190
    return [f"v_add_f32_e32 v{a}, v{b}, v{c}",
            f"v_mul_f32_e32 v{a}, 0x{(0x40490fdb + i) & 0xffffffff:x}, v{b}",
            f"s_add_u32 s{a % 90}, s{(a + 1) % 90}, {i % 60}",
            f"global_load_dword v{c}, v[{2 * (a % 40)}:{2 * (a % 40) + 1}], off "
            f"offset:{4 * (i % 1000)}",
            f"v_fma_f32 v{a}, v{b}, v{c}, v{(a + b) % 240}",
            f"ds_write_b32 v{a}, v{b} offset:{4 * (i % 4000)}"][i % 6]


def kernel_text(n, distinct=False):
    lines = ['\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', "\t.text", "\t.globl k",
             "\t.p2align 8", "\t.type k,@function", "k:"]
    for i in range(n - 1):
        lines.append("\t" + (distinct_line(i) if distinct else BODY[i % len(BODY)]))
    regs = (256, 96, 256) if distinct else (16, 16, 16)
    lines += ["\ts_endpgm", ".Lend:", "\t.size k, .Lend-k", "\t.rodata", "\t.p2align 6",
              "\t.amdhsa_kernel k", f"\t\t.amdhsa_next_free_vgpr {regs[0]}",
              f"\t\t.amdhsa_next_free_sgpr {regs[1]}", f"\t\t.amdhsa_accum_offset {regs[2]}",
              "\t.end_amdhsa_kernel", "\t.amdgpu_metadata", "---", "amdhsa.kernels:",
              "  - .name: k", "    .symbol: k.kd", "    .kernarg_segment_size: 0",
              "    .kernarg_segment_align: 8", "    .group_segment_fixed_size: 0",
              "    .private_segment_fixed_size: 0", "    .wavefront_size: 64",
              "    .sgpr_count: 16", "    .vgpr_count: 16", "    .max_flat_workgroup_size: 64",
              "amdhsa.target: amdgcn-amd-amdhsa--gfx942", "amdhsa.version:", "  - 1", "  - 2",
              "...", "\t.end_amdgpu_metadata"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--distinct", action="store_true",
                    help="vary registers/offsets: most instruction texts distinct")
    a = ap.parse_args()
    print(f"{'instructions':>12} {'raise µs/inst':>14} {'compile µs/inst':>16} "
          f"{'raise_asm µs/inst':>18}")
    for n in map(int, a.sizes.split(",")):
        text = kernel_text(n, a.distinct)
        h = aster.assemble(text, "gfx942")
        tr = tc = ta = float("inf")
        for _ in range(a.runs):
            t0 = time.process_time()
            m = aster.raise_code_object(h)
            t1 = time.process_time()
            out = aster.compile(m)
            t2 = time.process_time()
            aster.raise_asm(text)
            t3 = time.process_time()
            tr, tc, ta = min(tr, t1 - t0), min(tc, t2 - t1), min(ta, t3 - t2)
        assert aster.disassemble(out.hsaco, "gfx942") == aster.disassemble(h, "gfx942")
        print(f"{n:>12} {1e6 * tr / n:>14.2f} {1e6 * tc / n:>16.2f} {1e6 * ta / n:>18.2f}")


if __name__ == "__main__":
    main()
