; gpuc: kernel "matmul" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z14get_local_sizej(i32)

define internal spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p0, i32 %p1, i32 %p2, i32 %p3, i32 %p4, i32 %p5) {
entry:
  %t0 = alloca i32, align 4
  store i32 0, ptr %t0
  %t1 = alloca i32, align 4
  store i32 0, ptr %t1
  %t2 = alloca i32, align 4
  store i32 0, ptr %t2
  %t3 = alloca i32, align 4
  store i32 0, ptr %t3
  %t4 = alloca i32, align 4
  store i32 0, ptr %t4
  store i32 %p2, ptr %t0
  store i32 %p3, ptr %t1
  store i32 %p4, ptr %t2
  store i32 %p5, ptr %t3
  %t5 = getelementptr i32, ptr addrspace(1) %p0, i32 5
  %t6 = atomicrmw add ptr addrspace(1) %t5, i32 1 seq_cst, align 4
  store i32 %t6, ptr %t4
  %t10 = load i32, ptr %t4
  %t11 = icmp eq i32 %t10, 0
  br i1 %t11, label %L7, label %L9
L7:
  %t12 = getelementptr i32, ptr addrspace(1) %p0, i32 0
  %t13 = load i32, ptr %t0
  store i32 %t13, ptr addrspace(1) %t12, align 4
  %t14 = getelementptr i32, ptr addrspace(1) %p0, i32 1
  %t15 = load i32, ptr %t1
  store i32 %t15, ptr addrspace(1) %t14, align 4
  %t16 = getelementptr i32, ptr addrspace(1) %p0, i32 2
  %t17 = load i32, ptr %t2
  store i32 %t17, ptr addrspace(1) %t16, align 4
  %t18 = getelementptr i32, ptr addrspace(1) %p0, i32 3
  %t19 = load i32, ptr %t3
  store i32 %t19, ptr addrspace(1) %t18, align 4
  %t20 = getelementptr i32, ptr addrspace(1) %p0, i32 4
  %t21 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t22 = trunc i64 %t21 to i32
  %t23 = call spir_func i64 @_Z12get_local_idj(i32 1)
  %t24 = trunc i64 %t23 to i32
  %t25 = shl i32 %t24, 10
  %t26 = or i32 %t22, %t25
  %t27 = call spir_func i64 @_Z12get_local_idj(i32 2)
  %t28 = trunc i64 %t27 to i32
  %t29 = shl i32 %t28, 20
  %t30 = or i32 %t26, %t29
  store i32 %t30, ptr addrspace(1) %t20, align 4
  %t31 = getelementptr i32, ptr addrspace(1) %p0, i32 7
  %t32 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t33 = trunc i64 %t32 to i32
  store i32 %t33, ptr addrspace(1) %t31, align 4
  %t34 = getelementptr i32, ptr addrspace(1) %p0, i32 8
  %t35 = call spir_func i64 @_Z12get_group_idj(i32 1)
  %t36 = trunc i64 %t35 to i32
  store i32 %t36, ptr addrspace(1) %t34, align 4
  %t37 = getelementptr i32, ptr addrspace(1) %p0, i32 9
  %t38 = call spir_func i64 @_Z12get_group_idj(i32 2)
  %t39 = trunc i64 %t38 to i32
  store i32 %t39, ptr addrspace(1) %t37, align 4
  br label %L9
L9:
  ret void
}

define spir_kernel void @gpuc_matmul(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7, i32 %p8, i32 %p9, ptr addrspace(1) %p10, i32 %p11) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %t0 = alloca i32, align 4
  store i32 0, ptr %t0
  %t1 = alloca i32, align 4
  store i32 0, ptr %t1
  %t2 = alloca i32, align 4
  store i32 0, ptr %t2
  %t3 = alloca float, align 4
  store float 0.0, ptr %t3
  %t4 = alloca i32, align 4
  store i32 0, ptr %t4
  %t5 = alloca i32, align 4
  store i32 0, ptr %t5
  %t6 = alloca i32, align 4
  store i32 0, ptr %t6
  %t7 = alloca i32, align 4
  store i32 0, ptr %t7
  %t8 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t9 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t10 = getelementptr float, ptr addrspace(1) %p6, i32 %p7
  store i32 %p9, ptr %t0
  %t11 = call spir_func i64 @_Z12get_group_idj(i32 1)
  %t12 = trunc i64 %t11 to i32
  %t13 = call spir_func i64 @_Z14get_local_sizej(i32 1)
  %t14 = trunc i64 %t13 to i32
  %t15 = mul i32 %t12, %t14
  %t16 = call spir_func i64 @_Z12get_local_idj(i32 1)
  %t17 = trunc i64 %t16 to i32
  %t18 = add i32 %t15, %t17
  store i32 %t18, ptr %t1
  %t19 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t20 = trunc i64 %t19 to i32
  %t21 = call spir_func i64 @_Z14get_local_sizej(i32 0)
  %t22 = trunc i64 %t21 to i32
  %t23 = mul i32 %t20, %t22
  %t24 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t25 = trunc i64 %t24 to i32
  %t26 = add i32 %t23, %t25
  store i32 %t26, ptr %t2
  %t30 = load i32, ptr %t1
  %t31 = load i32, ptr %t0
  %t32 = icmp sge i32 %t30, %t31
  %t33 = load i32, ptr %t2
  %t34 = load i32, ptr %t0
  %t35 = icmp sge i32 %t33, %t34
  %t36 = or i1 %t32, %t35
  br i1 %t36, label %L27, label %L29
L27:
  ret void
L29:
  store float 0x0000000000000000, ptr %t3
  store i32 0, ptr %t4
  %t40 = load i32, ptr %t1
  %t41 = load i32, ptr %t0
  %t42 = mul i32 %t40, %t41
  %t43 = icmp sge i32 %t42, 0
  %t44 = load i32, ptr %t1
  %t45 = load i32, ptr %t0
  %t46 = mul i32 %t44, %t45
  %t47 = icmp slt i32 %t46, %p5
  %t48 = and i1 %t43, %t47
  %t49 = load i32, ptr %t0
  %t50 = sub i32 %t49, 1
  %t51 = sub i32 %p5, 1
  %t52 = load i32, ptr %t1
  %t53 = load i32, ptr %t0
  %t54 = mul i32 %t52, %t53
  %t55 = sub i32 %t51, %t54
  %t56 = icmp sle i32 %t50, %t55
  %t57 = and i1 %t48, %t56
  %t58 = load i32, ptr %t2
  %t59 = icmp sge i32 %t58, 0
  %t60 = load i32, ptr %t2
  %t61 = icmp slt i32 %t60, %p8
  %t62 = and i1 %t59, %t61
  %t63 = load i32, ptr %t0
  %t64 = sub i32 %t63, 1
  %t65 = load i32, ptr %t0
  %t66 = icmp eq i32 %t65, 0
  %t67 = load i32, ptr %t0
  %t68 = icmp eq i32 %t67, -1
  %t69 = sub i32 %p8, 1
  %t70 = load i32, ptr %t2
  %t71 = sub i32 %t69, %t70
  %t72 = sub i32 0, %t71
  %t73 = sub i32 %p8, 1
  %t74 = load i32, ptr %t2
  %t75 = sub i32 %t73, %t74
  %t76 = load i32, ptr %t0
  %t77 = icmp eq i32 %t76, 0
  %t78 = load i32, ptr %t0
  %t79 = icmp eq i32 %t78, -1
  %t80 = or i1 %t77, %t79
  %t81 = load i32, ptr %t0
  %t82 = select i1 %t80, i32 1, i32 %t81
  %t83 = sdiv i32 %t75, %t82
  %t84 = select i1 %t68, i32 %t72, i32 %t83
  %t85 = select i1 %t66, i32 0, i32 %t84
  %t86 = icmp sle i32 %t64, %t85
  %t87 = and i1 %t62, %t86
  %t88 = and i1 %t57, %t87
  br i1 %t88, label %L37, label %L38
L37:
  br label %L89
L89:
  %t95 = load i32, ptr %t4
  %t96 = load i32, ptr %t0
  %t97 = icmp slt i32 %t95, %t96
  %t98 = xor i1 %t97, true
  br i1 %t98, label %L92, label %L94
L92:
  br label %L91
L94:
  %t99 = load i32, ptr %t1
  %t100 = load i32, ptr %t0
  %t101 = mul i32 %t99, %t100
  %t102 = load i32, ptr %t4
  %t103 = add i32 %t101, %t102
  store i32 %t103, ptr %t5
  %t104 = load i32, ptr %t4
  %t105 = load i32, ptr %t0
  %t106 = mul i32 %t104, %t105
  %t107 = load i32, ptr %t2
  %t108 = add i32 %t106, %t107
  store i32 %t108, ptr %t6
  %t109 = load float, ptr %t3
  %t110 = load i32, ptr %t5
  %t111 = getelementptr float, ptr addrspace(1) %t9, i32 %t110
  %t112 = load float, ptr addrspace(1) %t111, align 4
  %t113 = load i32, ptr %t6
  %t114 = getelementptr float, ptr addrspace(1) %t10, i32 %t113
  %t115 = load float, ptr addrspace(1) %t114, align 4
  %t116 = fmul float %t112, %t115
  %t117 = fadd float %t109, %t116
  store float %t117, ptr %t3
  br label %L90
L90:
  %t118 = load i32, ptr %t4
  %t119 = add i32 %t118, 1
  store i32 %t119, ptr %t4
  br label %L89
L91:
  br label %L39
L38:
  br label %L120
L120:
  %t126 = load i32, ptr %t4
  %t127 = load i32, ptr %t0
  %t128 = icmp slt i32 %t126, %t127
  %t129 = xor i1 %t128, true
  br i1 %t129, label %L123, label %L125
L123:
  br label %L122
L125:
  %t130 = load i32, ptr %t1
  %t131 = load i32, ptr %t0
  %t132 = mul i32 %t130, %t131
  %t133 = load i32, ptr %t4
  %t134 = add i32 %t132, %t133
  store i32 %t134, ptr %t5
  %t138 = load i32, ptr %t5
  %t139 = icmp uge i32 %t138, %p5
  br i1 %t139, label %L135, label %L137
L135:
  %t140 = load i32, ptr %t5
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p10, i32 %p11, i32 1, i32 0, i32 %t140, i32 %p5)
  ret void
L137:
  %t141 = load i32, ptr %t4
  %t142 = load i32, ptr %t0
  %t143 = mul i32 %t141, %t142
  %t144 = load i32, ptr %t2
  %t145 = add i32 %t143, %t144
  store i32 %t145, ptr %t6
  %t149 = load i32, ptr %t6
  %t150 = icmp uge i32 %t149, %p8
  br i1 %t150, label %L146, label %L148
L146:
  %t151 = load i32, ptr %t6
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p10, i32 %p11, i32 2, i32 1, i32 %t151, i32 %p8)
  ret void
L148:
  %t152 = load float, ptr %t3
  %t153 = load i32, ptr %t5
  %t154 = getelementptr float, ptr addrspace(1) %t9, i32 %t153
  %t155 = load float, ptr addrspace(1) %t154, align 4
  %t156 = load i32, ptr %t6
  %t157 = getelementptr float, ptr addrspace(1) %t10, i32 %t156
  %t158 = load float, ptr addrspace(1) %t157, align 4
  %t159 = fmul float %t155, %t158
  %t160 = fadd float %t152, %t159
  store float %t160, ptr %t3
  br label %L121
L121:
  %t161 = load i32, ptr %t4
  %t162 = add i32 %t161, 1
  store i32 %t162, ptr %t4
  br label %L120
L122:
  br label %L39
L39:
  %t163 = load i32, ptr %t1
  %t164 = load i32, ptr %t0
  %t165 = mul i32 %t163, %t164
  %t166 = load i32, ptr %t2
  %t167 = add i32 %t165, %t166
  store i32 %t167, ptr %t7
  %t171 = load i32, ptr %t7
  %t172 = icmp uge i32 %t171, %p2
  br i1 %t172, label %L168, label %L170
L168:
  %t173 = load i32, ptr %t7
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p10, i32 %p11, i32 3, i32 2, i32 %t173, i32 %p2)
  ret void
L170:
  %t174 = load i32, ptr %t7
  %t175 = getelementptr float, ptr addrspace(1) %t8, i32 %t174
  %t176 = load float, ptr %t3
  store float %t176, ptr addrspace(1) %t175, align 4
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"float*", !"uint", !"int", !"float*", !"uint", !"int", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !"", !"", !"", !"", !""}
