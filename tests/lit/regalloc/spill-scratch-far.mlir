// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=4" | aster-translate --mlir-to-asm | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=4" | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-emu %t.hsaco far --block 64,1,1 --buf 1024 --print 0:i32:3 | FileCheck %s --check-prefix=EMU
// Slots past the 4095-byte immediate offset take their address from the SGPR
// base: with 8192 bytes of the kernel's own private data, the spilled pair
// lands at byte 8192.
// CHECK-LABEL: far:
// CHECK: s_mov_b32 [[B:s[0-9]+]], 0x2000
// CHECK-NEXT: scratch_store_dwordx2 off, v[{{[0-9]+}}:{{[0-9]+}}], [[B]]{{$}}
// The base SGPR still holds it at the reload: not set again.
// CHECK-NOT: s_mov_b32
// CHECK: scratch_load_dwordx2 v[{{[0-9]+}}:{{[0-9]+}}], off, [[B]]{{$}}
// CHECK: .amdhsa_private_segment_fixed_size 8200
// EMU: 11 0 0
amdgcn.module @m2 target("gfx942") {
  amdgcn.kernel @far(out: !amdgcn.ptr<i32>) attributes {block = array<i32: 64, 1, 1>, private_segment = 8192 : i32} {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %c12 = arith.constant 12 : i32
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %tid = amdgcn.reg : !amdgcn.vgpr<0>
    %ptr = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2>
    %r1 = amdgcn.v_mov_b64 %c7 : (i32) -> !amdgcn.vgpr<?x2>
    %t3 = amdgcn.v_mul_u32_u24 %c12, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %r2 = amdgcn.v_mov_b64 %c2 : (i32) -> !amdgcn.vgpr<?x2>
    %s2 = amdgcn.v_lshl_add_u64 %r2, %c0, %r2 : (!amdgcn.vgpr<?x2>, i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    %x = amdgcn.v_add_u32 %t3, %c0 : (!amdgcn.vgpr<?>, i32) -> !amdgcn.vgpr<?>
    %s = amdgcn.v_lshl_add_u64 %r1, %c0, %s2 : (!amdgcn.vgpr<?x2>, i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    amdgcn.global_store_dwordx2 %t3, %s, %ptr : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?x2>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.global_store_dword %t3, %x, %ptr {offset = 8 : i32} : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.s_endpgm
  }
}
