	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.type	k,@function
k:
	v_mov_b32_e32 v0, 1
	ds_swizzle_b32 v1, v0 offset:swizzle(SWAP,1)
	s_endpgm
