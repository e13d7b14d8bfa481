// RUN: aster-translate --mlir-to-hsaco %s -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: llvm-objdump -d --mcpu=gfx942 %t.hsaco | FileCheck %s --check-prefix=DIS
// RUN: llvm-readelf -h %t.hsaco | FileCheck %s --check-prefix=HDR

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @vadd(a: !amdgcn.ptr<f32>, n: i32) attributes {block = array<i32: 128, 1, 1>} {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %0 = amdgcn.v_add_u32 %v0, %v1 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    %1 = amdgcn.v_add_u32 %v0, %v1 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}
// HDR: Machine: EM_AMDGPU
// NOTES: amdhsa.kernels:
// NOTES: .kernarg_segment_size: 12
// NOTES: .max_flat_workgroup_size: 128
// NOTES: .name: vadd
// NOTES: .symbol: vadd.kd
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx942
// DIS:      <vadd>:
// DIS-NEXT:   v_add_u32_e32 v1, v0, v1
// DIS-NEXT:   v_add_u32_e32 v1, v0, v1
// DIS-NEXT:   s_endpgm
