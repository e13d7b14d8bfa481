"""Wave-level reductions with DPP.

wave_sum_f32 / wave_sum_u32: (x: VGPR) -> VGPR holding the sum of x over the
64 lanes in every lane. Steps: x + quad_perm[1,0,3,2](x) (pairs), then
quad_perm[2,3,0,1] (quads of 4 lanes), row_ror:4 and row_ror:8 (each lane
then holds its row's sum of 16 lanes), v_readlane_b32 of lanes 0, 16, 32,
48 and three adds. Every DPP step writes all lanes (no row/bank masks), so
no value depends on a register's old contents. Needs all 64 lanes active
and amdgcn-hazards (DPP and v_readlane read VGPRs a VALU just wrote).
The f32 sum adds in that tree order."""
from ..functions import function
from ..registers import SGPR, VGPR

__all__ = ["wave_sum_f32", "wave_sum_u32", "DPP_QUAD_PERM_1032", "DPP_QUAD_PERM_2301",
           "DPP_ROW_ROR"]

# DPP controls (AMD GCN3/CDNA ISA, DPP_CTRL enumeration): quad_perm:[a,b,c,d]
# is a | b << 2 | c << 4 | d << 6; row_ror:n is 0x120 + n.
DPP_QUAD_PERM_1032 = 1 | 0 << 2 | 3 << 4 | 2 << 6
DPP_QUAD_PERM_2301 = 2 | 3 << 2 | 0 << 4 | 1 << 6
DPP_ROW_ROR = 0x120


def _wave_sum(add, add_dpp):
    def body(f, x):
        for ctrl in (DPP_QUAD_PERM_1032, DPP_QUAD_PERM_2301, DPP_ROW_ROR + 4, DPP_ROW_ROR + 8):
            x = getattr(f, add_dpp)(VGPR(), x, x, dpp_ctrl=ctrl)
        rows = [f.v_readlane_b32(SGPR(), x, lane) for lane in (0, 16, 32, 48)]
        t = f.v_mov_b32(VGPR(), rows[0])
        for r in rows[1:]:
            t = getattr(f, add)(VGPR(), r, t)
        return t
    return body


wave_sum_f32 = function(params=[VGPR()], results=[VGPR()], name="wave_sum_f32")(
    _wave_sum("v_add_f32", "v_add_f32_dpp"))
wave_sum_u32 = function(params=[VGPR()], results=[VGPR()], name="wave_sum_u32")(
    _wave_sum("v_add_u32", "v_add_u32_dpp"))
