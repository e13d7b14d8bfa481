	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.type	k,@function
k:
	v_mov_b32_e32 v0, 1
	buffer_load_format_x v1, off, s[4:7], 0
	s_endpgm
