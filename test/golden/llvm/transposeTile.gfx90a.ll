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
  %t9 = alloca i1, align 4, addrspace(5)
  store i1 false, ptr addrspace(5) %t9
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
  store i1 true, ptr addrspace(5) %t9
  br label %L44
L44:
  %t51 = load i1, ptr addrspace(5) %t9
  %t52 = xor i1 %t51, true
  br i1 %t52, label %L48, label %L50
L48:
  %t56 = load i32, ptr addrspace(5) %t5
  %t57 = icmp uge i32 %t56, 16
  br i1 %t57, label %L53, label %L55
L53:
  %t58 = load i32, ptr addrspace(5) %t5
  %t59 = load i32, ptr addrspace(5) %t3
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t58, i32 %t59)
  store i1 true, ptr addrspace(5) %t9
  br label %L55
L55:
  br label %L50
L50:
  %t63 = load i1, ptr addrspace(5) %t9
  %t64 = xor i1 %t63, true
  br i1 %t64, label %L60, label %L62
L60:
  %t68 = load i32, ptr addrspace(5) %t3
  %t69 = icmp uge i32 %t68, 17
  br i1 %t69, label %L65, label %L67
L65:
  %t70 = load i32, ptr addrspace(5) %t5
  %t71 = load i32, ptr addrspace(5) %t3
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t70, i32 %t71)
  store i1 true, ptr addrspace(5) %t9
  br label %L67
L67:
  br label %L62
L62:
  %t75 = load i1, ptr addrspace(5) %t9
  %t76 = xor i1 %t75, true
  br i1 %t76, label %L72, label %L74
L72:
  %t77 = load i32, ptr addrspace(5) %t5
  %t78 = mul i32 %t77, 17
  %t79 = load i32, ptr addrspace(5) %t3
  %t80 = add i32 %t78, %t79
  %t81 = getelementptr float, ptr addrspace(3) @gpuc_transposeTile.shared0_tile, i32 %t80
  %t82 = load i32, ptr addrspace(5) %t6
  %t83 = getelementptr float, ptr addrspace(1) %t11, i32 %t82
  %t84 = load float, ptr addrspace(1) %t83, align 4
  store float %t84, ptr addrspace(3) %t81, align 4
  br label %L74
L74:
  br label %L20
L20:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %t88 = load i1, ptr addrspace(5) %t9
  %t89 = xor i1 %t88, true
  br i1 %t89, label %L85, label %L87
L85:
  %t93 = load i32, ptr addrspace(5) %t2
  %t94 = load i32, ptr addrspace(5) %t3
  %t95 = add i32 %t93, %t94
  %t96 = load i32, ptr addrspace(5) %t0
  %t97 = icmp slt i32 %t95, %t96
  %t98 = load i32, ptr addrspace(5) %t1
  %t99 = load i32, ptr addrspace(5) %t4
  %t100 = add i32 %t98, %t99
  %t101 = load i32, ptr addrspace(5) %t0
  %t102 = icmp slt i32 %t100, %t101
  %t103 = and i1 %t97, %t102
  br i1 %t103, label %L90, label %L92
L90:
  %t104 = load i32, ptr addrspace(5) %t3
  store i32 %t104, ptr addrspace(5) %t7
  %t108 = load i32, ptr addrspace(5) %t7
  %t109 = icmp uge i32 %t108, 16
  br i1 %t109, label %L105, label %L107
L105:
  %t110 = load i32, ptr addrspace(5) %t7
  %t111 = load i32, ptr addrspace(5) %t4
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t110, i32 %t111)
  store i1 true, ptr addrspace(5) %t9
  br label %L107
L107:
  %t115 = load i1, ptr addrspace(5) %t9
  %t116 = xor i1 %t115, true
  br i1 %t116, label %L112, label %L114
L112:
  %t120 = load i32, ptr addrspace(5) %t4
  %t121 = icmp uge i32 %t120, 17
  br i1 %t121, label %L117, label %L119
L117:
  %t122 = load i32, ptr addrspace(5) %t7
  %t123 = load i32, ptr addrspace(5) %t4
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t122, i32 %t123)
  store i1 true, ptr addrspace(5) %t9
  br label %L119
L119:
  br label %L114
L114:
  %t124 = load i32, ptr addrspace(5) %t1
  %t125 = load i32, ptr addrspace(5) %t4
  %t126 = add i32 %t124, %t125
  %t127 = load i32, ptr addrspace(5) %t0
  %t128 = mul i32 %t126, %t127
  %t129 = load i32, ptr addrspace(5) %t2
  %t130 = add i32 %t128, %t129
  %t131 = load i32, ptr addrspace(5) %t3
  %t132 = add i32 %t130, %t131
  store i32 %t132, ptr addrspace(5) %t8
  %t136 = load i1, ptr addrspace(5) %t9
  %t137 = xor i1 %t136, true
  br i1 %t137, label %L133, label %L135
L133:
  %t141 = load i32, ptr addrspace(5) %t8
  %t142 = icmp uge i32 %t141, %p2
  br i1 %t142, label %L138, label %L140
L138:
  %t143 = load i32, ptr addrspace(5) %t8
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 3, i32 3, i32 %t143, i32 %p2)
  store i1 true, ptr addrspace(5) %t9
  br label %L140
L140:
  br label %L135
L135:
  %t147 = load i1, ptr addrspace(5) %t9
  %t148 = xor i1 %t147, true
  br i1 %t148, label %L144, label %L146
L144:
  %t149 = load i32, ptr addrspace(5) %t8
  %t150 = getelementptr float, ptr addrspace(1) %t10, i32 %t149
  %t151 = load i32, ptr addrspace(5) %t7
  %t152 = mul i32 %t151, 17
  %t153 = load i32, ptr addrspace(5) %t4
  %t154 = add i32 %t152, %t153
  %t155 = getelementptr float, ptr addrspace(3) @gpuc_transposeTile.shared0_tile, i32 %t154
  %t156 = load float, ptr addrspace(3) %t155, align 4
  store float %t156, ptr addrspace(1) %t150, align 4
  br label %L146
L146:
  br label %L92
L92:
  br label %L87
L87:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
