; A hand-written kernel: a counted loop, an _e64 encoding LLVM would not
; pick by itself, a literal, data in the code and a descriptor block.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	loop
	.p2align	8
	.type	loop,@function
loop:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_mov_b32 s4, 0x10
	v_mov_b32_e32 v1, 0
.Lhead:
	v_add_u32_e64 v1, v1, 3
	s_sub_u32 s4, s4, 1
	s_cmp_lg_u32 s4, 0
	s_cbranch_scc1 .Lhead
	v_mul_f32_e32 v1, 0x40490fdb, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[2:3]
	s_endpgm
	.long 0x12345678
.Lfunc_end0:
	.size	loop, .Lfunc_end0-loop
	.rodata
	.p2align	6
	.amdhsa_kernel loop
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 5
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.text
