	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.p2align	2
	.type	twice,@function
twice:
	s_cmp_eq_u32 s4, 0
	s_cbranch_scc1 .Ldone
	v_add_u32_e32 v0, v0, v0
.Ldone:
	s_setpc_b64 s[30:31]
.Ltwice_end:
	.size	twice, .Ltwice_end-twice

	.globl	k
	.p2align	8
	.type	k,@function
k:
	s_mov_b32 s32, 0
	v_mov_b32_e32 v0, 21
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, twice@rel32@lo+4
	s_addc_u32 s1, s1, twice@rel32@hi+12
	s_swappc_b64 s[30:31], s[0:1]
	s_endpgm
.Lk_end:
	.size	k, .Lk_end-k

	.rodata
	.p2align	6
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 33
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 39
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
