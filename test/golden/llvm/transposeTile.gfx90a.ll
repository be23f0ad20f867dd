; gpuc: kernel "transposeTile" for gfx90a
target triple = "amdgcn-amd-amdhsa"

@gpuc_transposeTile.shared0_tile = internal addrspace(3) global [272 x float] undef, align 4

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare void @llvm.amdgcn.s.barrier()

define internal void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p0, i32 %p1, i32 %p2, i32 %p3, i32 %p4, i32 %p5) {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t2
  %t3 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t3
  %t4 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t4
  store i32 %p2, ptr addrspace(5) %t0
  store i32 %p3, ptr addrspace(5) %t1
  store i32 %p4, ptr addrspace(5) %t2
  store i32 %p5, ptr addrspace(5) %t3
  %t5 = getelementptr i32, ptr addrspace(1) %p0, i32 5
  %t6 = atomicrmw add ptr addrspace(1) %t5, i32 1 syncscope("agent") seq_cst, align 4
  store i32 %t6, ptr addrspace(5) %t4
  %t10 = load i32, ptr addrspace(5) %t4
  %t11 = icmp eq i32 %t10, 0
  br i1 %t11, label %L7, label %L9
L7:
  %t12 = getelementptr i32, ptr addrspace(1) %p0, i32 0
  %t13 = load i32, ptr addrspace(5) %t0
  store i32 %t13, ptr addrspace(1) %t12, align 4
  %t14 = getelementptr i32, ptr addrspace(1) %p0, i32 1
  %t15 = load i32, ptr addrspace(5) %t1
  store i32 %t15, ptr addrspace(1) %t14, align 4
  %t16 = getelementptr i32, ptr addrspace(1) %p0, i32 2
  %t17 = load i32, ptr addrspace(5) %t2
  store i32 %t17, ptr addrspace(1) %t16, align 4
  %t18 = getelementptr i32, ptr addrspace(1) %p0, i32 3
  %t19 = load i32, ptr addrspace(5) %t3
  store i32 %t19, ptr addrspace(1) %t18, align 4
  %t20 = getelementptr i32, ptr addrspace(1) %p0, i32 4
  %t21 = call i32 @llvm.amdgcn.workitem.id.x()
  %t22 = call i32 @llvm.amdgcn.workitem.id.y()
  %t23 = shl i32 %t22, 10
  %t24 = or i32 %t21, %t23
  %t25 = call i32 @llvm.amdgcn.workitem.id.z()
  %t26 = shl i32 %t25, 20
  %t27 = or i32 %t24, %t26
  store i32 %t27, ptr addrspace(1) %t20, align 4
  %t28 = getelementptr i32, ptr addrspace(1) %p0, i32 7
  %t29 = call i32 @llvm.amdgcn.workgroup.id.x()
  store i32 %t29, ptr addrspace(1) %t28, align 4
  %t30 = getelementptr i32, ptr addrspace(1) %p0, i32 8
  %t31 = call i32 @llvm.amdgcn.workgroup.id.y()
  store i32 %t31, ptr addrspace(1) %t30, align 4
  %t32 = getelementptr i32, ptr addrspace(1) %p0, i32 9
  %t33 = call i32 @llvm.amdgcn.workgroup.id.z()
  store i32 %t33, ptr addrspace(1) %t32, align 4
  br label %L9
L9:
  ret void
}

define amdgpu_kernel void @gpuc_transposeTile(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, i32 %p6, ptr addrspace(1) %p7, i32 %p8) #0 {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t2
  %t3 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t3
  %t4 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t4
  %t5 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t5
  %t6 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t6
  %t7 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t7
  %t8 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t8
  %t9 = alloca i8, align 4, addrspace(5)
  store i8 0, ptr addrspace(5) %t9
  %t10 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t11 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  store i32 %p6, ptr addrspace(5) %t0
  %t12 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t13 = mul i32 %t12, 16
  store i32 %t13, ptr addrspace(5) %t1
  %t14 = call i32 @llvm.amdgcn.workgroup.id.y()
  %t15 = mul i32 %t14, 16
  store i32 %t15, ptr addrspace(5) %t2
  %t16 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t16, ptr addrspace(5) %t3
  %t17 = call i32 @llvm.amdgcn.workitem.id.y()
  store i32 %t17, ptr addrspace(5) %t4
  %t21 = load i32, ptr addrspace(5) %t1
  %t22 = load i32, ptr addrspace(5) %t3
  %t23 = add i32 %t21, %t22
  %t24 = load i32, ptr addrspace(5) %t0
  %t25 = icmp slt i32 %t23, %t24
  %t26 = load i32, ptr addrspace(5) %t2
  %t27 = load i32, ptr addrspace(5) %t4
  %t28 = add i32 %t26, %t27
  %t29 = load i32, ptr addrspace(5) %t0
  %t30 = icmp slt i32 %t28, %t29
  %t31 = and i1 %t25, %t30
  br i1 %t31, label %L18, label %L20
L18:
  %t32 = load i32, ptr addrspace(5) %t4
  store i32 %t32, ptr addrspace(5) %t5
  %t33 = load i32, ptr addrspace(5) %t2
  %t34 = load i32, ptr addrspace(5) %t4
  %t35 = add i32 %t33, %t34
  %t36 = load i32, ptr addrspace(5) %t0
  %t37 = mul i32 %t35, %t36
  %t38 = load i32, ptr addrspace(5) %t1
  %t39 = add i32 %t37, %t38
  %t40 = load i32, ptr addrspace(5) %t3
  %t41 = add i32 %t39, %t40
  store i32 %t41, ptr addrspace(5) %t6
  %t45 = load i32, ptr addrspace(5) %t6
  %t46 = icmp uge i32 %t45, %p5
  br i1 %t46, label %L42, label %L44
L42:
  %t47 = load i32, ptr addrspace(5) %t6
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 1, i32 0, i32 %t47, i32 %p5)
  store i8 1, ptr addrspace(5) %t9
  br label %L44
L44:
  %t51 = load i8, ptr addrspace(5) %t9
  %t52 = trunc i8 %t51 to i1
  %t53 = xor i1 %t52, true
  br i1 %t53, label %L48, label %L50
L48:
  %t57 = load i32, ptr addrspace(5) %t5
  %t58 = icmp uge i32 %t57, 16
  br i1 %t58, label %L54, label %L56
L54:
  %t59 = load i32, ptr addrspace(5) %t5
  %t60 = load i32, ptr addrspace(5) %t3
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t59, i32 %t60)
  store i8 1, ptr addrspace(5) %t9
  br label %L56
L56:
  br label %L50
L50:
  %t64 = load i8, ptr addrspace(5) %t9
  %t65 = trunc i8 %t64 to i1
  %t66 = xor i1 %t65, true
  br i1 %t66, label %L61, label %L63
L61:
  %t70 = load i32, ptr addrspace(5) %t3
  %t71 = icmp uge i32 %t70, 17
  br i1 %t71, label %L67, label %L69
L67:
  %t72 = load i32, ptr addrspace(5) %t5
  %t73 = load i32, ptr addrspace(5) %t3
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t72, i32 %t73)
  store i8 1, ptr addrspace(5) %t9
  br label %L69
L69:
  br label %L63
L63:
  %t77 = load i8, ptr addrspace(5) %t9
  %t78 = trunc i8 %t77 to i1
  %t79 = xor i1 %t78, true
  br i1 %t79, label %L74, label %L76
L74:
  %t80 = load i32, ptr addrspace(5) %t5
  %t81 = mul i32 %t80, 17
  %t82 = load i32, ptr addrspace(5) %t3
  %t83 = add i32 %t81, %t82
  %t84 = getelementptr float, ptr addrspace(3) @gpuc_transposeTile.shared0_tile, i32 %t83
  %t85 = load i32, ptr addrspace(5) %t6
  %t86 = getelementptr float, ptr addrspace(1) %t11, i32 %t85
  %t87 = load float, ptr addrspace(1) %t86, align 4
  store float %t87, ptr addrspace(3) %t84, align 4
  br label %L76
L76:
  br label %L20
L20:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %t91 = load i8, ptr addrspace(5) %t9
  %t92 = trunc i8 %t91 to i1
  %t93 = xor i1 %t92, true
  br i1 %t93, label %L88, label %L90
L88:
  %t97 = load i32, ptr addrspace(5) %t2
  %t98 = load i32, ptr addrspace(5) %t3
  %t99 = add i32 %t97, %t98
  %t100 = load i32, ptr addrspace(5) %t0
  %t101 = icmp slt i32 %t99, %t100
  %t102 = load i32, ptr addrspace(5) %t1
  %t103 = load i32, ptr addrspace(5) %t4
  %t104 = add i32 %t102, %t103
  %t105 = load i32, ptr addrspace(5) %t0
  %t106 = icmp slt i32 %t104, %t105
  %t107 = and i1 %t101, %t106
  br i1 %t107, label %L94, label %L96
L94:
  %t108 = load i32, ptr addrspace(5) %t3
  store i32 %t108, ptr addrspace(5) %t7
  %t112 = load i32, ptr addrspace(5) %t7
  %t113 = icmp uge i32 %t112, 16
  br i1 %t113, label %L109, label %L111
L109:
  %t114 = load i32, ptr addrspace(5) %t7
  %t115 = load i32, ptr addrspace(5) %t4
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t114, i32 %t115)
  store i8 1, ptr addrspace(5) %t9
  br label %L111
L111:
  %t119 = load i8, ptr addrspace(5) %t9
  %t120 = trunc i8 %t119 to i1
  %t121 = xor i1 %t120, true
  br i1 %t121, label %L116, label %L118
L116:
  %t125 = load i32, ptr addrspace(5) %t4
  %t126 = icmp uge i32 %t125, 17
  br i1 %t126, label %L122, label %L124
L122:
  %t127 = load i32, ptr addrspace(5) %t7
  %t128 = load i32, ptr addrspace(5) %t4
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t127, i32 %t128)
  store i8 1, ptr addrspace(5) %t9
  br label %L124
L124:
  br label %L118
L118:
  %t129 = load i32, ptr addrspace(5) %t1
  %t130 = load i32, ptr addrspace(5) %t4
  %t131 = add i32 %t129, %t130
  %t132 = load i32, ptr addrspace(5) %t0
  %t133 = mul i32 %t131, %t132
  %t134 = load i32, ptr addrspace(5) %t2
  %t135 = add i32 %t133, %t134
  %t136 = load i32, ptr addrspace(5) %t3
  %t137 = add i32 %t135, %t136
  store i32 %t137, ptr addrspace(5) %t8
  %t141 = load i8, ptr addrspace(5) %t9
  %t142 = trunc i8 %t141 to i1
  %t143 = xor i1 %t142, true
  br i1 %t143, label %L138, label %L140
L138:
  %t147 = load i32, ptr addrspace(5) %t8
  %t148 = icmp uge i32 %t147, %p2
  br i1 %t148, label %L144, label %L146
L144:
  %t149 = load i32, ptr addrspace(5) %t8
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 3, i32 3, i32 %t149, i32 %p2)
  store i8 1, ptr addrspace(5) %t9
  br label %L146
L146:
  br label %L140
L140:
  %t153 = load i8, ptr addrspace(5) %t9
  %t154 = trunc i8 %t153 to i1
  %t155 = xor i1 %t154, true
  br i1 %t155, label %L150, label %L152
L150:
  %t156 = load i32, ptr addrspace(5) %t8
  %t157 = getelementptr float, ptr addrspace(1) %t10, i32 %t156
  %t158 = load i32, ptr addrspace(5) %t7
  %t159 = mul i32 %t158, 17
  %t160 = load i32, ptr addrspace(5) %t4
  %t161 = add i32 %t159, %t160
  %t162 = getelementptr float, ptr addrspace(3) @gpuc_transposeTile.shared0_tile, i32 %t161
  %t163 = load float, ptr addrspace(3) %t162, align 4
  store float %t163, ptr addrspace(1) %t157, align 4
  br label %L152
L152:
  br label %L96
L96:
  br label %L90
L90:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
