	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.type	k,@function
k:
	v_mov_b32_e32 v0, 1
	v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf
	s_endpgm
