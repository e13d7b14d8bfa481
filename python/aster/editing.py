"""Editing kernels that already exist (raised from assembly or code objects).

    m = aster.raise_code_object(hsaco)
    k = m.kernels[0]                      # a Kernel: every instruction method works
    for op in k.ops:                      # Op: .name .operands .results .attributes
        if op.name == "s_nop":            #     .location .asm .erase()
            op.erase()
    store = next(op for op in k.ops if op.name == "global_store_dword")
    with k.insert_before(store):
        k.v_mul_f32(v[2], 2.0, v[2])
    out = aster.compile(m, pipeline="amdgcn-hazards")

Instructions appended without an insertion point go at the kernel's end.
Branches and s_endpgm end a block, so they can only be appended; an op
whose result is read by another, or that ends a block, cannot be erased.
"""
import contextlib

import numpy as np

from . import _aster
from ._aster import AsterError
from .args import KernelArg, ptr
from .kernel import Kernel

__all__ = ["RaisedKernel", "attach_kernels"]

# Descriptor fields (.amdhsa_*) that ask the hardware for an SGPR, in
# hardware order, and aster's sgpr_setup names for them.
_SETUP = (("user_sgpr_private_segment_buffer", "private_segment_buffer"),
          ("user_sgpr_dispatch_ptr", "dispatch_ptr"), ("user_sgpr_queue_ptr", "queue_ptr"),
          ("user_sgpr_kernarg_segment_ptr", "kernarg_ptr"),
          ("user_sgpr_dispatch_id", "dispatch_id"),
          ("user_sgpr_flat_scratch_init", "flat_scratch_init"),
          ("user_sgpr_private_segment_size", "private_segment_size"),
          ("system_sgpr_workgroup_id_x", "workgroup_id_x"),
          ("system_sgpr_workgroup_id_y", "workgroup_id_y"),
          ("system_sgpr_workgroup_id_z", "workgroup_id_z"),
          ("system_sgpr_workgroup_info", "workgroup_info"),
          ("enable_private_segment", "private_segment_wave_offset"))
_BY_VALUE = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


def _args(metadata, kernel):
    """The kernel's explicit arguments from its metadata; metadata of another
    shape (hand-written or damaged) is an AsterError naming the kernel."""
    args = metadata.get(".args", ())
    if not isinstance(args, (list, tuple)) or not all(
            isinstance(a, dict) and isinstance(a.get(".value_kind", ""), str)
            and isinstance(a.get(".offset"), int) and isinstance(a.get(".size"), int)
            for a in args):
        raise AsterError(f"kernel '{kernel}': the metadata's .args is not a list of "
                         "argument maps with .offset, .size and .value_kind")
    out = []
    for i, a in enumerate(args):
        kind = a.get(".value_kind", "")
        if kind.startswith("hidden_"):
            continue
        pointer = kind == "global_buffer"
        t = ptr(np.uint8) if pointer else np.dtype(_BY_VALUE.get(a[".size"], np.uint8))
        out.append(KernelArg(a.get(".name", f"arg{i}"), t, a[".offset"], a[".size"], pointer))
    return out


class RaisedKernel(Kernel):
    """A kernel that came from existing code: the builder methods work on it
    (appending at its end, or at an insertion point), and `ops`,
    `insert_before`/`insert_after` and `Op.erase()` edit what is there.
    `descriptor` and `metadata` are what its code object states."""

    __slots__ = ("descriptor", "metadata")

    def __init__(self, module, kb):
        attrs = _aster.kernel_attrs(kb)
        self.descriptor = attrs.get("descriptor", {})
        self.metadata = attrs.get("metadata", {})
        d, md = self.descriptor, self.metadata
        try:
            setup = [name for field, name in _SETUP if d.get(field)]
            reqd = md.get(".reqd_workgroup_size")
            block = tuple(int(x) for x in reqd) if reqd else (
                int(md.get(".max_flat_workgroup_size", 256)), 1, 1)
            kernarg_size = int(md.get(".kernarg_segment_size", d.get("kernarg_size", 0)))
            lds = int(d.get("group_segment_fixed_size", 0))
            workitem_ids = int(d.get("system_vgpr_workitem_id", 0)) + 1
        except (AttributeError, TypeError, ValueError) as e:
            raise AsterError(f"kernel '{kb.name}': malformed descriptor or metadata ({e})") \
                from None
        super().__init__(module, kb, kb.name, _args(md, kb.name), kernarg_size, block, lds,
                         setup, workitem_ids)

    def __repr__(self):
        return f"<aster.RaisedKernel {self.name} on {self.module.target}>"

    @property
    def ops(self):
        """The kernel's instructions in order (aster.Op handles)."""
        return _aster.kernel_ops(self._kb)

    @contextlib.contextmanager
    def _insert(self, op, before):
        _aster.insert_at(self._kb, op, before)
        try:
            yield op
        finally:
            _aster.insert_at_end(self._kb)

    def insert_before(self, op):
        """`with k.insert_before(op): k.s_nop(0)` puts instructions before `op`."""
        return self._insert(op, True)

    def insert_after(self, op):
        """`with k.insert_after(op): ...` puts instructions after `op`."""
        return self._insert(op, False)

    def erase(self, op):
        """Same as `op.erase()`."""
        op.erase()


def attach_kernels(module):
    """Builders for every kernel already in `module` (a raised Module)."""
    module.kernels = [RaisedKernel(module, _aster.attach_kernel(module._m, name))
                      for name in _aster.kernel_names(module._m)]
    return module
