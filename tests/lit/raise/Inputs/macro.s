; .macro with arguments, a default and a keyword argument, \@ in labels,
; a macro calling a macro, and a macro whose name starts with a dot.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	k
	.p2align	8
	.type	k,@function
.macro add3 dst, a, b=3
	v_add_u32_e32 v\dst, \b, v\a
.endm
.macro countdown reg, n
	s_mov_b32 s\reg, \n
.Lloop\@:
	s_sub_u32 s\reg, s\reg, 1
	s_cmp_lg_u32 s\reg, 0
	s_cbranch_scc1 .Lloop\@
.endm
.macro twice dst
	add3 \dst, \dst
	add3 \dst, \dst, b=5
.endm
.macro .v_zero first, last
	v_mov_b32_e32 v\first, 0
	.ifnb \last
	v_mov_b32_e32 v\last, 0
	.endif
.endm
k:
	.v_zero 1
	.v_zero 6, 7
	add3 2, 1
	twice 1
	countdown 4, 16
	countdown 5, 2
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
