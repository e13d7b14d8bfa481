"""The emulator's matrix thread (cc/emulator/MatrixThread.h: dense MFMAs
computed on a second host thread) changes nothing but host time: a kernel
built to hit every hazard it must wait for -- a VALU reading an MFMA's D
right away, an MFMA whose A is an earlier MFMA's D still being computed, a
write to the C of an MFMA in flight, accumulator chains read back with
v_accvgpr_read -- stores the same bytes with the thread on and off, and the
timing model gives the same cycles. The reference is the emulator without
the thread (ASTER_EMU_MATRIX_THREAD=0, each run in a fresh interpreter);
the MFMA semantics themselves are checked against AMD's layouts in
test_emu_mfma_layouts.py."""
import json
import os
import subprocess
import sys

import numpy as np

import aster
from aster import a, s, v

F32 = aster.ptr(np.float32)
WORDS = 8  # stored per lane


def hazards():
    m = aster.Module("gfx942")
    k = m.kernel("hazards", args=[("out", F32)], block=(64, 1, 1))
    k.load_arg("out", s[4:6])
    # f16 pairs 1 + (lane & 1023) / 1024, different per register.
    k.v_and_b32(v[1], 0x3ff, k.workitem_id("x"))
    for r in range(2, 6):
        k.v_or_b32(v[7], 0x3c00 + 64 * r, v[1])
        k.v_lshl_or_b32(v[r], v[7], 16, v[7])
    for r in range(32):
        k.v_accvgpr_write_b32(a[r], 0)
    for r in range(16, 48):
        k.v_mov_b32(v[r], 0)
    for _ in range(4):  # an accumulator chain
        k.v_mfma_f32_32x32x8_f16(a[0:16], v[2:4], v[4:6], a[0:16])
    k.v_mfma_f32_32x32x8_f16(v[16:32], v[2:4], v[4:6], v[16:32])
    k.v_add_f32(v[64], v[16], v[17])                                 # reads D at once
    k.v_mfma_f32_32x32x8_f16(a[16:32], v[16:18], v[2:4], a[16:32])  # A from that D
    k.v_mfma_f32_32x32x8_f16(v[48:64], v[2:4], v[4:6], v[32:48])
    k.v_mov_b32(v[32], 0x40000000)                                   # overwrites its C
    k.v_mfma_f32_32x32x8_f16(v[32:48], v[32:34], v[4:6], v[32:48])
    k.v_accvgpr_read_b32(v[65], a[0])
    k.v_accvgpr_read_b32(v[66], a[17])
    k.v_mov_b32(v[67], v[16])
    k.v_mov_b32(v[68], v[48])
    k.v_mov_b32(v[69], v[63])
    k.v_mov_b32(v[70], v[33])
    k.v_mov_b32(v[71], v[47])
    k.v_lshlrev_b32(v[8], 5, k.workitem_id("x"))  # lane * WORDS * 4 bytes
    k.s_waitcnt(lgkmcnt=0)
    for i in range(WORDS):
        k.v_add_u32(v[9], 4 * i, v[8])
        k.global_store_dword(v[9], v[64 + i], s[4:6])
    k.s_endpgm()
    return m.hsaco()


RUN = r"""
import hashlib, json, sys
import numpy as np
import aster
code = open(sys.argv[1], "rb").read()
out = np.zeros(64 * %d, np.float32)
r = aster.launch(code, "hazards", (1, 1, 1), (64, 1, 1), [out], timing=True)
print(json.dumps({"out": out.tobytes().hex(), "cycles": r.cycles}))
""" % WORDS


def run(path, thread):
    env = dict(os.environ, ASTER_EMU_MATRIX_THREAD=thread)
    p = subprocess.run([sys.executable, "-c", RUN, path], env=env, capture_output=True,
                       text=True, check=True)
    return json.loads(p.stdout)


def test_matrix_thread_changes_no_result_and_no_cycle(tmp_path):
    path = tmp_path / "hazards.hsaco"
    path.write_bytes(hazards())
    on, off = run(str(path), "1"), run(str(path), "0")
    assert on["out"] == off["out"]
    assert on["cycles"] == off["cycles"]
    values = np.frombuffer(bytes.fromhex(off["out"]), np.float32).reshape(64, WORDS)
    assert np.all(values[:, 1] != 0)  # the chain's accumulator was read back


def test_plain_launch_same_with_one_and_two_threads():
    # Two workgroups (storing the same values): on one host thread the
    # MFMAs go to the matrix thread, on two workgroup threads they do not.
    code = hazards()
    outs = []
    for threads in (1, 2):
        out = np.zeros(64 * WORDS, np.float32)
        aster.launch(code, "hazards", (2, 1, 1), (64, 1, 1), [out], threads=threads)
        outs.append(out)
    np.testing.assert_array_equal(outs[0], outs[1])
