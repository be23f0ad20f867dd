; gpuc: kernel "matmul" for gfx90a
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()

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

define amdgpu_kernel void @gpuc_matmul(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7, i32 %p8, i32 %p9, ptr addrspace(1) %p10, i32 %p11) #0 {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t2
  %t3 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t3
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
  %t9 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t9
  %t10 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t10
  %t11 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t12 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t13 = getelementptr float, ptr addrspace(1) %p6, i32 %p7
  store i32 %p9, ptr addrspace(5) %t0
  %t14 = call i32 @llvm.amdgcn.workgroup.id.y()
  %t15 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t16 = getelementptr i8, ptr addrspace(4) %t15, i64 6
  %t17 = load i16, ptr addrspace(4) %t16, align 2
  %t18 = zext i16 %t17 to i32
  %t19 = mul i32 %t14, %t18
  %t20 = call i32 @llvm.amdgcn.workitem.id.y()
  %t21 = add i32 %t19, %t20
  store i32 %t21, ptr addrspace(5) %t1
  %t22 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t23 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t24 = getelementptr i8, ptr addrspace(4) %t23, i64 4
  %t25 = load i16, ptr addrspace(4) %t24, align 2
  %t26 = zext i16 %t25 to i32
  %t27 = mul i32 %t22, %t26
  %t28 = call i32 @llvm.amdgcn.workitem.id.x()
  %t29 = add i32 %t27, %t28
  store i32 %t29, ptr addrspace(5) %t2
  %t33 = load i32, ptr addrspace(5) %t1
  %t34 = load i32, ptr addrspace(5) %t0
  %t35 = icmp sge i32 %t33, %t34
  %t36 = load i32, ptr addrspace(5) %t2
  %t37 = load i32, ptr addrspace(5) %t0
  %t38 = icmp sge i32 %t36, %t37
  %t39 = or i1 %t35, %t38
  br i1 %t39, label %L30, label %L32
L30:
  ret void
L32:
  store float 0x0000000000000000, ptr addrspace(5) %t3
  store i32 0, ptr addrspace(5) %t4
  %t43 = load i32, ptr addrspace(5) %t1
  %t44 = load i32, ptr addrspace(5) %t0
  %t45 = mul i32 %t43, %t44
  %t46 = icmp sge i32 %t45, 0
  %t47 = load i32, ptr addrspace(5) %t1
  %t48 = load i32, ptr addrspace(5) %t0
  %t49 = mul i32 %t47, %t48
  %t50 = icmp slt i32 %t49, %p5
  %t51 = and i1 %t46, %t50
  %t52 = load i32, ptr addrspace(5) %t0
  %t53 = sub i32 %t52, 1
  %t54 = sub i32 %p5, 1
  %t55 = load i32, ptr addrspace(5) %t1
  %t56 = load i32, ptr addrspace(5) %t0
  %t57 = mul i32 %t55, %t56
  %t58 = sub i32 %t54, %t57
  %t59 = icmp sle i32 %t53, %t58
  %t60 = and i1 %t51, %t59
  %t61 = load i32, ptr addrspace(5) %t2
  %t62 = icmp sge i32 %t61, 0
  %t63 = load i32, ptr addrspace(5) %t2
  %t64 = icmp slt i32 %t63, %p8
  %t65 = and i1 %t62, %t64
  %t66 = load i32, ptr addrspace(5) %t0
  %t67 = sub i32 %t66, 1
  %t68 = load i32, ptr addrspace(5) %t0
  %t69 = icmp eq i32 %t68, 0
  %t70 = load i32, ptr addrspace(5) %t0
  %t71 = icmp eq i32 %t70, -1
  %t72 = sub i32 %p8, 1
  %t73 = load i32, ptr addrspace(5) %t2
  %t74 = sub i32 %t72, %t73
  %t75 = sub i32 0, %t74
  %t76 = sub i32 %p8, 1
  %t77 = load i32, ptr addrspace(5) %t2
  %t78 = sub i32 %t76, %t77
  %t79 = load i32, ptr addrspace(5) %t0
  %t80 = icmp eq i32 %t79, 0
  %t81 = load i32, ptr addrspace(5) %t0
  %t82 = icmp eq i32 %t81, -1
  %t83 = or i1 %t80, %t82
  %t84 = load i32, ptr addrspace(5) %t0
  %t85 = select i1 %t83, i32 1, i32 %t84
  %t86 = sdiv i32 %t78, %t85
  %t87 = select i1 %t71, i32 %t75, i32 %t86
  %t88 = select i1 %t69, i32 0, i32 %t87
  %t89 = icmp sle i32 %t67, %t88
  %t90 = and i1 %t65, %t89
  %t91 = and i1 %t60, %t90
  %t92 = xor i1 %t91, true
  br i1 %t92, label %L40, label %L42
L40:
  store i32 0, ptr addrspace(5) %t10
  br label %L93
L93:
  %t99 = load i32, ptr addrspace(5) %t10
  %t100 = load i32, ptr addrspace(5) %t0
  %t101 = icmp slt i32 %t99, %t100
  %t102 = xor i1 %t101, true
  br i1 %t102, label %L96, label %L98
L96:
  br label %L95
L98:
  %t103 = load i32, ptr addrspace(5) %t1
  %t104 = load i32, ptr addrspace(5) %t0
  %t105 = mul i32 %t103, %t104
  %t106 = load i32, ptr addrspace(5) %t10
  %t107 = add i32 %t105, %t106
  store i32 %t107, ptr addrspace(5) %t8
  %t111 = load i32, ptr addrspace(5) %t8
  %t112 = icmp uge i32 %t111, %p5
  br i1 %t112, label %L108, label %L110
L108:
  %t113 = load i32, ptr addrspace(5) %t8
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p10, i32 %p11, i32 1, i32 0, i32 %t113, i32 %p5)
  ret void
L110:
  %t114 = load i32, ptr addrspace(5) %t10
  %t115 = load i32, ptr addrspace(5) %t0
  %t116 = mul i32 %t114, %t115
  %t117 = load i32, ptr addrspace(5) %t2
  %t118 = add i32 %t116, %t117
  store i32 %t118, ptr addrspace(5) %t9
  %t122 = load i32, ptr addrspace(5) %t9
  %t123 = icmp uge i32 %t122, %p8
  br i1 %t123, label %L119, label %L121
L119:
  %t124 = load i32, ptr addrspace(5) %t9
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p10, i32 %p11, i32 2, i32 1, i32 %t124, i32 %p8)
  ret void
L121:
  br label %L94
L94:
  %t125 = load i32, ptr addrspace(5) %t10
  %t126 = add i32 %t125, 1
  store i32 %t126, ptr addrspace(5) %t10
  br label %L93
L95:
  br label %L42
L42:
  br label %L127
L127:
  %t133 = load i32, ptr addrspace(5) %t4
  %t134 = load i32, ptr addrspace(5) %t0
  %t135 = icmp slt i32 %t133, %t134
  %t136 = xor i1 %t135, true
  br i1 %t136, label %L130, label %L132
L130:
  br label %L129
L132:
  %t137 = load i32, ptr addrspace(5) %t1
  %t138 = load i32, ptr addrspace(5) %t0
  %t139 = mul i32 %t137, %t138
  %t140 = load i32, ptr addrspace(5) %t4
  %t141 = add i32 %t139, %t140
  store i32 %t141, ptr addrspace(5) %t5
  %t142 = load i32, ptr addrspace(5) %t4
  %t143 = load i32, ptr addrspace(5) %t0
  %t144 = mul i32 %t142, %t143
  %t145 = load i32, ptr addrspace(5) %t2
  %t146 = add i32 %t144, %t145
  store i32 %t146, ptr addrspace(5) %t6
  %t147 = load float, ptr addrspace(5) %t3
  %t148 = load i32, ptr addrspace(5) %t5
  %t149 = getelementptr float, ptr addrspace(1) %t12, i32 %t148
  %t150 = load float, ptr addrspace(1) %t149, align 4
  %t151 = load i32, ptr addrspace(5) %t6
  %t152 = getelementptr float, ptr addrspace(1) %t13, i32 %t151
  %t153 = load float, ptr addrspace(1) %t152, align 4
  %t154 = fmul float %t150, %t153
  %t155 = fadd float %t147, %t154
  store float %t155, ptr addrspace(5) %t3
  br label %L128
L128:
  %t156 = load i32, ptr addrspace(5) %t4
  %t157 = add i32 %t156, 1
  store i32 %t157, ptr addrspace(5) %t4
  br label %L127
L129:
  %t158 = load i32, ptr addrspace(5) %t1
  %t159 = load i32, ptr addrspace(5) %t0
  %t160 = mul i32 %t158, %t159
  %t161 = load i32, ptr addrspace(5) %t2
  %t162 = add i32 %t160, %t161
  store i32 %t162, ptr addrspace(5) %t7
  %t166 = load i32, ptr addrspace(5) %t7
  %t167 = icmp uge i32 %t166, %p2
  br i1 %t167, label %L163, label %L165
L163:
  %t168 = load i32, ptr addrspace(5) %t7
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p10, i32 %p11, i32 3, i32 2, i32 %t168, i32 %p2)
  ret void
L165:
  %t169 = load i32, ptr addrspace(5) %t7
  %t170 = getelementptr float, ptr addrspace(1) %t11, i32 %t169
  %t171 = load float, ptr addrspace(5) %t3
  store float %t171, ptr addrspace(1) %t170, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
