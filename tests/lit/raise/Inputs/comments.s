/* A block comment before everything,
   over several lines. */
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	k
	.p2align	8
	.type	k,@function
k: /* after a label */
	v_mov_b32_e32 v1, /* inside the operands */ 0
	/* alone */ v_mov_b32_e32 v2, 1 // a line comment
	v_mov_b32_e32 v3, 2 ; another kind of line comment
	v_add_u32_e32 v1, v2, /* a comment that
	  runs over a line break */ v3
	/******************************************/
	/* Banner                                 */
	/******************************************/
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
