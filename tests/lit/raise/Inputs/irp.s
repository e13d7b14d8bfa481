; .irp over a list and .irpc over the characters of a word.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	k
	.p2align	8
	.type	k,@function
k:
	.irp r, 1, 2, 5
	v_mov_b32_e32 v\r, s\r
	.endr
	.irpc d, 1369
	v_add_u32_e32 v\d, \d, v\d
	.endr
	s_endpgm
.Lfunc_end0:
	.size	k, .Lfunc_end0-k
	.rodata
	.p2align	6
	.amdhsa_kernel k
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 16
	.end_amdhsa_kernel
