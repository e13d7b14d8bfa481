; .set / .equ / = symbols as register numbers and ranges, offsets and
; literals, including a symbol defined from another.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl	k
	.p2align	8
	.type	k,@function
	.set vA, 12
	.equ sBase, 4
	vB = vA + 1
	.set OFF, 0x40
	.set K, 1000
k:
	s_load_dwordx2 s[sBase:sBase+1], s[0:1], 0
	v_mov_b32_e32 v[vA], K
	v_mov_b32_e32 v[vB], s[sBase]
	v_add_u32_e32 v[vA], v[vB], v[vA]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v0, v[vA:vA+1], s[sBase:sBase+1] offset:OFF
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
