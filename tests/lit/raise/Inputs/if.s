; .if / .elseif / .else / .endif with expressions, .ifdef / .ifndef,
; nested conditionals.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	k
	.p2align	8
	.type	k,@function
	.set WIDE, 1
	.set N, 3
k:
	.ifdef WIDE
	v_mov_b32_e32 v1, 1
	.else
	v_mov_b32_e32 v1, 2
	.endif
	.ifndef NARROW
	v_mov_b32_e32 v2, 3
	.endif
	.if N == 1
	s_nop 1
	.elseif (N * 2) > 4
	s_nop 2
	.if WIDE && (N - 3)
	s_nop 3
	.else
	s_nop 4
	.endif
	.else
	s_nop 5
	.endif
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
