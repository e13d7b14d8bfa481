"""The `.nv.info` / `.nv.info.<kernel>` sections of a cubin: NVIDIA's kernel attributes.

A section is a sequence of records, each 4-byte aligned:
    byte format, byte attribute, then by format
    0x01 (no value): 2 bytes of zero;  0x02: 1-byte value + pad;  0x03: 2-byte value;
    0x04: 2-byte size, then `size` bytes of payload.
Attribute codes and formats below are nvdisasm's own annotations of the corpus
(`//----- nvinfo : EIATTR_REGCOUNT` above `.byte 0x04, 0x2f`), which
tests/py/sass/test_cubin.py checks against the committed corpus text.
KPARAM_INFO payload (from the same annotations, checked by the test against
each kernel's parameter offsets): u32 index, u16 ordinal, u16 offset, u32 flags
whose bits 18-31 hold the parameter's size in bytes.
Needs: section bytes.  Guarantees: records cover the section exactly, or SassError.
"""
import struct

from .errors import SassError

EIATTR = {
    0x05: 'MAX_THREADS', 0x0a: 'PARAM_CBANK', 0x0f: 'EXTERNS', 0x11: 'FRAME_SIZE',
    0x12: 'MIN_STACK_SIZE', 0x17: 'KPARAM_INFO', 0x19: 'CBANK_PARAM_SIZE',
    0x1b: 'MAXREG_COUNT', 0x1c: 'EXIT_INSTR_OFFSETS', 0x1e: 'CRS_STACK_SIZE',
    0x28: 'COOP_GROUP_INSTR_OFFSETS', 0x29: 'COOP_GROUP_MASK_REGIDS', 0x2e: 'ATOM16_EMUL_INSTR_REG_MAP',
    0x2b: 'WMMA_USED', 0x2f: 'REGCOUNT', 0x31: 'INT_WARP_WIDE_INSTR_OFFSETS', 0x36: 'SW_WAR', 0x37: 'CUDA_API_VERSION',
    0x38: 'NUM_MBARRIERS', 0x46: 'SYSCALL_OFFSETS', 0x39: 'MBARRIER_INSTR_OFFSETS', 0x4c: 'NUM_BARRIERS',
    0x50: 'SPARSE_MMA_MASK', 0x5f: 'MERCURY_ISA_VERSION',
}
CODE = {v: k for k, v in EIATTR.items()}
# Attributes whose payload is a list of u32 instruction offsets in the kernel's code.
OFFSET_LISTS = ('EXIT_INSTR_OFFSETS', 'COOP_GROUP_INSTR_OFFSETS', 'INT_WARP_WIDE_INSTR_OFFSETS',
                'MBARRIER_INSTR_OFFSETS', 'SYSCALL_OFFSETS')


class Record:
    __slots__ = ('fmt', 'attr', 'pos', 'size', 'value')

    def __init__(self, fmt, attr, pos, size, value):
        # pos: offset of the payload (or 2-byte value) inside the section
        self.fmt, self.attr, self.pos, self.size, self.value = fmt, attr, pos, size, value

    @property
    def name(self):
        return EIATTR.get(self.attr, f'0x{self.attr:02x}')

    def __repr__(self):
        return f'Record({self.name}, size={self.size})'


def parse(data):
    recs, i = [], 0
    while i < len(data):
        if i + 4 > len(data):
            raise SassError(f'.nv.info: truncated record at byte {i}')
        fmt, attr = data[i], data[i + 1]
        if fmt == 0x04:
            size = struct.unpack_from('<H', data, i + 2)[0]
            if i + 4 + size > len(data):
                raise SassError(f'.nv.info: record 0x{attr:02x} at byte {i} overruns the section')
            recs.append(Record(fmt, attr, i + 4, size, bytes(data[i + 4:i + 4 + size])))
            i += 4 + size
        elif fmt in (0x01, 0x02, 0x03):
            recs.append(Record(fmt, attr, i + 2, 2, struct.unpack_from('<H', data, i + 2)[0]))
            i += 4
        else:
            raise SassError(f'.nv.info: unknown record format 0x{fmt:02x} at byte {i}')
        i = (i + 3) & ~3
    return recs


def replace(data, rec, payload):
    """Section bytes with record `rec` (format 0x04) holding `payload` instead
    (its size field rewritten; records after it move)."""
    if rec.fmt != 0x04 or len(payload) % 4:
        raise SassError(f'.nv.info: cannot resize record {rec.name}')
    head = bytes(data[rec.pos - 4:rec.pos - 2]) + struct.pack('<H', len(payload))
    return bytes(data[:rec.pos - 4]) + head + payload + bytes(data[rec.pos + rec.size:])


def kparams(recs):
    """[(ordinal, offset, size)] of a kernel's parameters, by ordinal."""
    out = []
    for r in recs:
        if r.name == 'KPARAM_INFO':
            _, ordinal, offset, flags = struct.unpack('<IHHI', r.value[:12])
            out.append((ordinal, offset, flags >> 18 & 0x3fff))
    return sorted(out)


def regcounts(recs):
    """{symbol index: register count} from the global .nv.info."""
    out = {}
    for r in recs:
        if r.name == 'REGCOUNT':
            sym, n = struct.unpack('<II', r.value[:8])
            out[sym] = (n, r.pos + 4)
    return out
