; gpuc: kernel "transposeTile" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@gpuc_transposeTile.shared0_tile = internal addrspace(3) global [272 x float] undef, align 4

declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32)

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

define spir_kernel void @gpuc_transposeTile(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, i32 %p6, ptr addrspace(1) %p7, i32 %p8) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
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
  %t5 = alloca i32, align 4
  store i32 0, ptr %t5
  %t6 = alloca i32, align 4
  store i32 0, ptr %t6
  %t7 = alloca i32, align 4
  store i32 0, ptr %t7
  %t8 = alloca i32, align 4
  store i32 0, ptr %t8
  %t9 = alloca i1, align 4
  store i1 false, ptr %t9
  %t10 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t11 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  store i32 %p6, ptr %t0
  %t12 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t13 = trunc i64 %t12 to i32
  %t14 = mul i32 %t13, 16
  store i32 %t14, ptr %t1
  %t15 = call spir_func i64 @_Z12get_group_idj(i32 1)
  %t16 = trunc i64 %t15 to i32
  %t17 = mul i32 %t16, 16
  store i32 %t17, ptr %t2
  %t18 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t19 = trunc i64 %t18 to i32
  store i32 %t19, ptr %t3
  %t20 = call spir_func i64 @_Z12get_local_idj(i32 1)
  %t21 = trunc i64 %t20 to i32
  store i32 %t21, ptr %t4
  %t25 = load i32, ptr %t1
  %t26 = load i32, ptr %t3
  %t27 = add i32 %t25, %t26
  %t28 = load i32, ptr %t0
  %t29 = icmp slt i32 %t27, %t28
  %t30 = load i32, ptr %t2
  %t31 = load i32, ptr %t4
  %t32 = add i32 %t30, %t31
  %t33 = load i32, ptr %t0
  %t34 = icmp slt i32 %t32, %t33
  %t35 = and i1 %t29, %t34
  br i1 %t35, label %L22, label %L24
L22:
  %t36 = load i32, ptr %t4
  store i32 %t36, ptr %t5
  %t37 = load i32, ptr %t2
  %t38 = load i32, ptr %t4
  %t39 = add i32 %t37, %t38
  %t40 = load i32, ptr %t0
  %t41 = mul i32 %t39, %t40
  %t42 = load i32, ptr %t1
  %t43 = add i32 %t41, %t42
  %t44 = load i32, ptr %t3
  %t45 = add i32 %t43, %t44
  store i32 %t45, ptr %t6
  %t49 = load i32, ptr %t6
  %t50 = icmp uge i32 %t49, %p5
  br i1 %t50, label %L46, label %L48
L46:
  %t51 = load i32, ptr %t6
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 1, i32 0, i32 %t51, i32 %p5)
  store i1 true, ptr %t9
  br label %L48
L48:
  %t55 = load i1, ptr %t9
  %t56 = xor i1 %t55, true
  br i1 %t56, label %L52, label %L54
L52:
  %t60 = load i32, ptr %t5
  %t61 = icmp uge i32 %t60, 16
  br i1 %t61, label %L57, label %L59
L57:
  %t62 = load i32, ptr %t5
  %t63 = load i32, ptr %t3
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t62, i32 %t63)
  store i1 true, ptr %t9
  br label %L59
L59:
  br label %L54
L54:
  %t67 = load i1, ptr %t9
  %t68 = xor i1 %t67, true
  br i1 %t68, label %L64, label %L66
L64:
  %t72 = load i32, ptr %t3
  %t73 = icmp uge i32 %t72, 17
  br i1 %t73, label %L69, label %L71
L69:
  %t74 = load i32, ptr %t5
  %t75 = load i32, ptr %t3
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t74, i32 %t75)
  store i1 true, ptr %t9
  br label %L71
L71:
  br label %L66
L66:
  %t79 = load i1, ptr %t9
  %t80 = xor i1 %t79, true
  br i1 %t80, label %L76, label %L78
L76:
  %t81 = load i32, ptr %t5
  %t82 = mul i32 %t81, 17
  %t83 = load i32, ptr %t3
  %t84 = add i32 %t82, %t83
  %t85 = getelementptr float, ptr addrspace(3) @gpuc_transposeTile.shared0_tile, i32 %t84
  %t86 = load i32, ptr %t6
  %t87 = getelementptr float, ptr addrspace(1) %t11, i32 %t86
  %t88 = load float, ptr addrspace(1) %t87, align 4
  store float %t88, ptr addrspace(3) %t85, align 4
  br label %L78
L78:
  br label %L24
L24:
  call spir_func void @_Z7barrierj(i32 3)
  %t92 = load i1, ptr %t9
  %t93 = xor i1 %t92, true
  br i1 %t93, label %L89, label %L91
L89:
  %t97 = load i32, ptr %t2
  %t98 = load i32, ptr %t3
  %t99 = add i32 %t97, %t98
  %t100 = load i32, ptr %t0
  %t101 = icmp slt i32 %t99, %t100
  %t102 = load i32, ptr %t1
  %t103 = load i32, ptr %t4
  %t104 = add i32 %t102, %t103
  %t105 = load i32, ptr %t0
  %t106 = icmp slt i32 %t104, %t105
  %t107 = and i1 %t101, %t106
  br i1 %t107, label %L94, label %L96
L94:
  %t108 = load i32, ptr %t3
  store i32 %t108, ptr %t7
  %t112 = load i32, ptr %t7
  %t113 = icmp uge i32 %t112, 16
  br i1 %t113, label %L109, label %L111
L109:
  %t114 = load i32, ptr %t7
  %t115 = load i32, ptr %t4
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t114, i32 %t115)
  store i1 true, ptr %t9
  br label %L111
L111:
  %t119 = load i1, ptr %t9
  %t120 = xor i1 %t119, true
  br i1 %t120, label %L116, label %L118
L116:
  %t124 = load i32, ptr %t4
  %t125 = icmp uge i32 %t124, 17
  br i1 %t125, label %L121, label %L123
L121:
  %t126 = load i32, ptr %t7
  %t127 = load i32, ptr %t4
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t126, i32 %t127)
  store i1 true, ptr %t9
  br label %L123
L123:
  br label %L118
L118:
  %t128 = load i32, ptr %t1
  %t129 = load i32, ptr %t4
  %t130 = add i32 %t128, %t129
  %t131 = load i32, ptr %t0
  %t132 = mul i32 %t130, %t131
  %t133 = load i32, ptr %t2
  %t134 = add i32 %t132, %t133
  %t135 = load i32, ptr %t3
  %t136 = add i32 %t134, %t135
  store i32 %t136, ptr %t8
  %t140 = load i1, ptr %t9
  %t141 = xor i1 %t140, true
  br i1 %t141, label %L137, label %L139
L137:
  %t145 = load i32, ptr %t8
  %t146 = icmp uge i32 %t145, %p2
  br i1 %t146, label %L142, label %L144
L142:
  %t147 = load i32, ptr %t8
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 3, i32 3, i32 %t147, i32 %p2)
  store i1 true, ptr %t9
  br label %L144
L144:
  br label %L139
L139:
  %t151 = load i1, ptr %t9
  %t152 = xor i1 %t151, true
  br i1 %t152, label %L148, label %L150
L148:
  %t153 = load i32, ptr %t8
  %t154 = getelementptr float, ptr addrspace(1) %t10, i32 %t153
  %t155 = load i32, ptr %t7
  %t156 = mul i32 %t155, 17
  %t157 = load i32, ptr %t4
  %t158 = add i32 %t156, %t157
  %t159 = getelementptr float, ptr addrspace(3) @gpuc_transposeTile.shared0_tile, i32 %t158
  %t160 = load float, ptr addrspace(3) %t159, align 4
  store float %t160, ptr addrspace(1) %t154, align 4
  br label %L150
L150:
  br label %L96
L96:
  br label %L91
L91:
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"float*", !"uint", !"int", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !"", !""}
