; .rept with symbols reassigned in the body (registers numbered by a
; symbol), a .rept inside a macro, a nested .rept and an .if in the body.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	k
	.p2align	8
	.type	k,@function
.macro clear_acc first, num
	_a = \first
	.rept \num
	v_accvgpr_write_b32 a[_a], 0
	_a = _a + 1
	.endr
.endm
k:
	clear_acc 0, 4
	.itr = 0
	.rept 4
	v_fmac_f32_e32 v[.itr], v[.itr+1], v[.itr+2]
	.itr = .itr + 4
	.if .itr > 8
	.itr = 0
	.endif
	.endr
	.rept 2
	.rept 3
	s_nop 1
	.endr
	s_nop 2
	.endr
	.rep 0
	s_nop 7
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
