// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// Raised instructions the table cannot print back exactly stay as their
// text (amdgcn.data, unknown="keep"). The pass reads the text: the table row
// of its mnemonic (less _e32/_e64/_dpp/_sdwa) gives its counters and
// destinations (the first operands), the other registers are read; a VALU
// mnemonic the table lacks is one destination then sources. Any other text
// waits for everything in flight before it. Data words without text are
// not executed and need nothing.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: raised:
  // CHECK:      global_load_dword v1, v[4:5], off
  // CHECK-NEXT: scratch_load_dword v3, v2, off
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_add_u32_sdwa v6, v3, sext(v3) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:BYTE_2
  // CHECK-NEXT: v_screen_partition_4se_b32 v7, v8
  // CHECK-NEXT: ds_read_b32 v10, v2
  // CHECK-NEXT: .long 0x12345678
  // CHECK-NEXT: s_waitcnt lgkmcnt(0)
  // CHECK-NEXT: s_sethalt 0
  // CHECK-NEXT: v_mov_b32 v12, v1
  amdgcn.kernel @raised() {
    %v45 = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %a = amdgcn.global_load_dword %v45 : (!amdgcn.vgpr<[4:5]>) -> !amdgcn.vgpr<1>
    amdgcn.data {text = "scratch_load_dword v3, v2, off"}
    amdgcn.data {text = "v_add_u32_sdwa v6, v3, sext(v3) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:BYTE_2"}
    amdgcn.data {text = "v_screen_partition_4se_b32 v7, v8"}
    %b = amdgcn.ds_read_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<10>
    amdgcn.data {words = array<i32: 305419896>}
    amdgcn.data {text = "s_sethalt 0"}
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<12>
    amdgcn.s_endpgm
  }
}
