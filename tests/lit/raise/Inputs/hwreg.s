; hwreg and sendmsg operands written as numbers (register id, offset,
; size; message, operation, stream) and as bare immediates.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	k
	.p2align	8
	.type	k,@function
k:
	s_getreg_b32 s0, hwreg(4, 0, 32)
	s_getreg_b32 s1, hwreg(1, 4, 4)
	s_setreg_b32 hwreg(1, 0, 4), s1
	s_setreg_imm32_b32 hwreg(1, 8, 2), 3
	s_getreg_b32 s2, 0x1a
	s_sendmsg sendmsg(2, 1, 0)
	s_sendmsg sendmsg(1)
	s_sendmsg 0x22
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
