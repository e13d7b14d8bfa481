"""gfx950 transposing LDS reads (ds_read_b64_tr_b16/_b8/_b4, ds_read_b96_tr_b6)
from clang-22 kernels (hip950/ds_tr.hip) on the emulator.

Two oracles, neither of them the emulator's code:
* AMD's rocRoller hardware test of the four instructions
  (TransposeLoadsTest): its address pattern (lane 16x + y reads element block
  32x + y, the second read 16 blocks further), its LDS layout and the
  input/result index relation it asserts on the GPU, restated here;
* the layout Triton's AMD backend and rocRoller both rely on, as a NumPy
  function of arbitrary per-lane addresses: in each group of 16 lanes the
  loaded elements in lane order, N per lane, form N rows of 16; lane n
  receives column n (element k = loaded element 16k + n)."""
from pathlib import Path

import numpy as np
import pytest

import aster

HIP = Path(__file__).with_name("hip950") / "ds_tr.hip"
KINDS = {"tr_b16": (16, 64, 128), "tr_b8": (8, 64, 128), "tr_b4": (4, 64, 128),
         "tr_b6": (6, 96, 256)}    # element bits, bits per lane, second read's offset


@pytest.fixture(scope="module")
def code(hip_hsaco):
    return hip_hsaco(HIP, arch="gfx950")


def run(code, name, tile, addr):
    """The kernel's two results per lane: shape (64, 2, words)."""
    words = KINDS[name][1] // 32
    assert aster.load_code_object(code).unsupported(name) == []
    out = np.zeros(64 * 2 * words, np.uint32)
    aster.launch(code, name, grid=1, block=64,
                 args=[np.asarray(tile, np.uint32), np.asarray(addr, np.uint32), out])
    return out.reshape(64, 2, words)


def elements(words, bits):
    """Little-endian elements of `bits` bits of a uint32 array (last axis)."""
    b = np.unpackbits(np.ascontiguousarray(words).view(np.uint8), bitorder="little")
    b = b.reshape(*words.shape[:-1], -1, bits)
    return (b * (1 << np.arange(bits))).sum(-1)


def transpose_model(tile, addr, bits, lane_bits):
    """Per-lane result words for reads at byte addresses `addr` of `tile`."""
    nbytes, n = lane_bits // 8, lane_bits // bits
    lds = np.asarray(tile, np.uint32).view(np.uint8)
    loaded = np.stack([lds[a:a + nbytes] for a in addr])                # (64, nbytes)
    e = elements(loaded.view(np.uint32), bits).reshape(4, 16 * n)      # per group, lane order
    got = e.reshape(4, n, 16).transpose(0, 2, 1)                        # lane n: column n
    bitsout = ((got[..., None] >> np.arange(bits)) & 1).astype(np.uint8).reshape(64, -1)
    return np.packbits(bitsout, axis=1, bitorder="little").view(np.uint32)


@pytest.mark.parametrize("name", list(KINDS))
def test_rocroller_hardware_relation(code, name):
    """rocRoller's GPU test, for its 16 x K shapes: data as 16-bit/8-bit/6-bit/
    4-bit elements, each lane's two blocks (8 bytes, or 12 bytes padded to
    16 for b6) stored at 16 * lane (32 * lane for b6)."""
    bits, lane_bits, off = KINDS[name]
    rng = np.random.default_rng(bits)
    nelem = 64 * 2 * (lane_bits // bits)
    data = rng.integers(0, 1 << bits, nelem)
    # Pack the elements little-endian into 12- or 8-byte blocks.
    blk = lane_bits // 8
    raw = np.packbits(((data[:, None] >> np.arange(bits)) & 1).astype(np.uint8).reshape(-1),
                      bitorder="little")
    tile = np.zeros(4096, np.uint8)
    stride = 16 if bits == 6 else blk
    for c in range(128):
        tile[stride * c:stride * c + blk] = raw[blk * c:blk * (c + 1)]
    tr_idx = np.array([32 * x + y for x in range(4) for y in range(16)])
    out = run(code, name, tile.view(np.uint32), tr_idx * stride)
    if bits == 6:
        # result block L is lane L's first read, 64 + L its second.
        res = elements(np.concatenate([out[:, 0], out[:, 1]]), 6).reshape(-1)
        for t in range(2):
            for w in range(2):
                for z in range(2):
                    x, y = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
                    np.testing.assert_array_equal(
                        data[(4 * t + 2 * z + w) * 256 + 16 * x + y],
                        res[(4 * w + 2 * t + z) * 256 + 16 * y + x])
        return
    # result word [r * 64 + lane]: r = 0, 1 the first read's registers, 2, 3 the second's.
    res = elements(out.reshape(64, 4).T.copy(), bits).reshape(-1)
    nx = 32 // bits
    ny = {16: 32, 8: 64, 4: 128}[bits] // nx         # rocRoller's K (MN = 16) / nx
    for z in range(4):
        for w in range(4):
            x, y = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
            np.testing.assert_array_equal(data[(w * 4 + z) * nx * ny + x * ny + y],
                                          res[(z * 4 + w) * nx * ny + y * nx + x])


@pytest.mark.parametrize("name", list(KINDS))
def test_random_addresses(code, name):
    bits, lane_bits, off = KINDS[name]
    rng = np.random.default_rng(100 + bits)
    tile = rng.integers(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32)
    align = 16 if bits == 6 else 8
    addr = rng.integers(0, (4096 - off - 16) // align, 64) * align
    out = run(code, name, tile, addr)
    np.testing.assert_array_equal(out[:, 0], transpose_model(tile, addr, bits, lane_bits))
    np.testing.assert_array_equal(out[:, 1], transpose_model(tile, addr + off, bits, lane_bits))


def test_misaligned_address_is_refused(code):
    tile = np.arange(1024, dtype=np.uint32)
    addr = np.arange(64, dtype=np.uint32) * 16
    addr[5] += 4
    with pytest.raises(aster.EmulatorError, match="not aligned to 8 bytes"):
        run(code, "tr_b16", tile, addr)
    addr = np.arange(64, dtype=np.uint32) * 32 + 8     # 8-byte aligned, b96 needs 16
    with pytest.raises(aster.EmulatorError, match="not aligned to 16 bytes"):
        run(code, "tr_b6", tile, addr)


def test_partial_exec_is_refused(code):
    tile = np.arange(1024, dtype=np.uint32)
    addr = np.arange(64, dtype=np.uint32) * 8
    out = np.zeros(128, np.uint32)
    with pytest.raises(aster.EmulatorError, match="partial EXEC"):
        aster.launch(code, "tr_b16_partial", grid=1, block=64, args=[tile, addr, out])
