// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// RUN: aster-opt %s -amdgcn-waitcnt | FileCheck %s --check-prefix=STATS
// Waits the author wrote are kept as written and counted: the pass adds
// only what is still missing after them (WYSIWYG). Counters saturate: a
// wait can allow at most max-1 accesses in flight (vmcnt 62, lgkmcnt 14);
// a field at its maximum guarantees nothing.

amdgcn.module @m target("gfx942") {
  // The author's vmcnt(1) covers v4; v5 still needs vmcnt(0).
  // CHECK-LABEL: author:
  // CHECK:      global_load_dword v5, v[0:1], off
  // CHECK-NEXT: s_waitcnt vmcnt(1)
  // CHECK-NEXT: v_mov_b32 v7, v4
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_mov_b32 v8, v5
  // STATS-LABEL: @author
  // STATS-SAME: author = 1 : i32
  // STATS-SAME: inserted = 1 : i32
  amdgcn.kernel @author() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<5>
    amdgcn.s_waitcnt {vmcnt = 1 : i32}
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    %y = amdgcn.v_mov_b32 %b : (!amdgcn.vgpr<5>) -> !amdgcn.vgpr<8>
    amdgcn.s_endpgm
  }

  // A stronger author wait than needed stays; nothing is added after it.
  // CHECK-LABEL: author_strong:
  // CHECK:      s_waitcnt vmcnt(0) lgkmcnt(0)
  // CHECK-NEXT: v_mov_b32 v7, v4
  // CHECK-NEXT: v_mov_b32 v8, v5
  // CHECK-NEXT: s_endpgm
  amdgcn.kernel @author_strong() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<5>
    amdgcn.s_waitcnt {vmcnt = 0 : i32, lgkmcnt = 0 : i32}
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    %y = amdgcn.v_mov_b32 %b : (!amdgcn.vgpr<5>) -> !amdgcn.vgpr<8>
    amdgcn.s_endpgm
  }

  // An author wait on another counter (lgkmcnt) does not cover a VMEM load;
  // vmcnt(63) (the field's maximum, printed as absent) does not either.
  // CHECK-LABEL: author_other:
  // CHECK:      s_waitcnt lgkmcnt(0)
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_mov_b32 v7, v4
  amdgcn.kernel @author_other() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    amdgcn.s_waitcnt {vmcnt = 63 : i32, lgkmcnt = 0 : i32}
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    amdgcn.s_endpgm
  }

  // 70 loads after v100's: vmcnt saturates, the wait is vmcnt(62). The
  // second read (v101, 69 after it) is covered by that wait already.
  // CHECK-LABEL: saturation:
  // CHECK:      global_load_dword v170, v[0:1], off
  // CHECK-NEXT: s_waitcnt vmcnt(62)
  // CHECK-NEXT: v_mov_b32 v2, v100
  // CHECK-NEXT: v_mov_b32 v3, v101
  // CHECK-NEXT: s_waitcnt vmcnt(55)
  // CHECK-NEXT: v_mov_b32 v2, v115
  amdgcn.kernel @saturation() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %l100 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<100>
    %l101 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<101>
    %l102 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<102>
    %l103 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<103>
    %l104 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<104>
    %l105 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<105>
    %l106 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<106>
    %l107 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<107>
    %l108 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<108>
    %l109 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<109>
    %l110 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<110>
    %l111 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<111>
    %l112 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<112>
    %l113 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<113>
    %l114 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<114>
    %l115 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<115>
    %l116 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<116>
    %l117 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<117>
    %l118 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<118>
    %l119 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<119>
    %l120 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<120>
    %l121 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<121>
    %l122 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<122>
    %l123 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<123>
    %l124 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<124>
    %l125 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<125>
    %l126 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<126>
    %l127 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<127>
    %l128 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<128>
    %l129 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<129>
    %l130 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<130>
    %l131 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<131>
    %l132 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<132>
    %l133 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<133>
    %l134 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<134>
    %l135 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<135>
    %l136 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<136>
    %l137 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<137>
    %l138 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<138>
    %l139 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<139>
    %l140 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<140>
    %l141 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<141>
    %l142 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<142>
    %l143 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<143>
    %l144 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<144>
    %l145 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<145>
    %l146 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<146>
    %l147 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<147>
    %l148 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<148>
    %l149 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<149>
    %l150 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<150>
    %l151 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<151>
    %l152 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<152>
    %l153 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<153>
    %l154 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<154>
    %l155 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<155>
    %l156 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<156>
    %l157 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<157>
    %l158 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<158>
    %l159 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<159>
    %l160 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<160>
    %l161 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<161>
    %l162 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<162>
    %l163 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<163>
    %l164 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<164>
    %l165 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<165>
    %l166 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<166>
    %l167 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<167>
    %l168 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<168>
    %l169 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<169>
    %l170 = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<170>
    %x = amdgcn.v_mov_b32 %l100 : (!amdgcn.vgpr<100>) -> !amdgcn.vgpr<2>
    %y = amdgcn.v_mov_b32 %l101 : (!amdgcn.vgpr<101>) -> !amdgcn.vgpr<3>
    %z = amdgcn.v_mov_b32 %l115 : (!amdgcn.vgpr<115>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }

  // LDS saturates at lgkmcnt(14).
  // CHECK-LABEL: lds_saturation:
  // CHECK:      s_waitcnt lgkmcnt(14)
  // CHECK-NEXT: v_mov_b32 v2, v100
  amdgcn.kernel @lds_saturation() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %l100 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<100>
    %l101 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<101>
    %l102 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<102>
    %l103 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<103>
    %l104 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<104>
    %l105 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<105>
    %l106 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<106>
    %l107 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<107>
    %l108 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<108>
    %l109 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<109>
    %l110 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<110>
    %l111 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<111>
    %l112 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<112>
    %l113 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<113>
    %l114 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<114>
    %l115 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<115>
    %l116 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<116>
    %l117 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<117>
    %l118 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<118>
    %l119 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<119>
    %l120 = amdgcn.ds_read_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<120>
    %x = amdgcn.v_mov_b32 %l100 : (!amdgcn.vgpr<100>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }
}
