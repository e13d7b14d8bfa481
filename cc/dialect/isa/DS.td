// LDS (data share) instructions.
def DS_READ_B32 : Inst<"ds_read_b32", "DS", [Opd<"vdst", "v">], [Opd<"addr", "v">],
    [DSOffset, gds], CDNA3, ["LDS", "MAYLOAD", "LGKMCNT"]>;
def DS_WRITE_B32 : Inst<"ds_write_b32", "DS", [], [Opd<"addr", "v">, Opd<"data0", "v">],
    [DSOffset, gds], CDNA3, ["LDS", "MAYSTORE", "LGKMCNT"]>;
