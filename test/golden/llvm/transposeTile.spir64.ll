; gpuc: kernel "transposeTile" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@gpuc_transposeTile.shared0_tile = internal addrspace(3) global [272 x float] undef, align 4

declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z7barrierj(i32) convergent

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
  %t9 = alloca i8, align 4
  store i8 0, ptr %t9
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
  store i8 1, ptr %t9
  br label %L48
L48:
  %t55 = load i8, ptr %t9
  %t56 = trunc i8 %t55 to i1
  %t57 = xor i1 %t56, true
  br i1 %t57, label %L52, label %L54
L52:
  %t61 = load i32, ptr %t5
  %t62 = icmp uge i32 %t61, 16
  br i1 %t62, label %L58, label %L60
L58:
  %t63 = load i32, ptr %t5
  %t64 = load i32, ptr %t3
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t63, i32 %t64)
  store i8 1, ptr %t9
  br label %L60
L60:
  br label %L54
L54:
  %t68 = load i8, ptr %t9
  %t69 = trunc i8 %t68 to i1
  %t70 = xor i1 %t69, true
  br i1 %t70, label %L65, label %L67
L65:
  %t74 = load i32, ptr %t3
  %t75 = icmp uge i32 %t74, 17
  br i1 %t75, label %L71, label %L73
L71:
  %t76 = load i32, ptr %t5
  %t77 = load i32, ptr %t3
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t76, i32 %t77)
  store i8 1, ptr %t9
  br label %L73
L73:
  br label %L67
L67:
  %t81 = load i8, ptr %t9
  %t82 = trunc i8 %t81 to i1
  %t83 = xor i1 %t82, true
  br i1 %t83, label %L78, label %L80
L78:
  %t84 = load i32, ptr %t5
  %t85 = mul i32 %t84, 17
  %t86 = load i32, ptr %t3
  %t87 = add i32 %t85, %t86
  %t88 = getelementptr float, ptr addrspace(3) @gpuc_transposeTile.shared0_tile, i32 %t87
  %t89 = load i32, ptr %t6
  %t90 = getelementptr float, ptr addrspace(1) %t11, i32 %t89
  %t91 = load float, ptr addrspace(1) %t90, align 4
  store float %t91, ptr addrspace(3) %t88, align 4
  br label %L80
L80:
  br label %L24
L24:
  call spir_func void @_Z7barrierj(i32 3) convergent
  %t95 = load i8, ptr %t9
  %t96 = trunc i8 %t95 to i1
  %t97 = xor i1 %t96, true
  br i1 %t97, label %L92, label %L94
L92:
  %t101 = load i32, ptr %t2
  %t102 = load i32, ptr %t3
  %t103 = add i32 %t101, %t102
  %t104 = load i32, ptr %t0
  %t105 = icmp slt i32 %t103, %t104
  %t106 = load i32, ptr %t1
  %t107 = load i32, ptr %t4
  %t108 = add i32 %t106, %t107
  %t109 = load i32, ptr %t0
  %t110 = icmp slt i32 %t108, %t109
  %t111 = and i1 %t105, %t110
  br i1 %t111, label %L98, label %L100
L98:
  %t112 = load i32, ptr %t3
  store i32 %t112, ptr %t7
  %t116 = load i32, ptr %t7
  %t117 = icmp uge i32 %t116, 16
  br i1 %t117, label %L113, label %L115
L113:
  %t118 = load i32, ptr %t7
  %t119 = load i32, ptr %t4
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t118, i32 %t119)
  store i8 1, ptr %t9
  br label %L115
L115:
  %t123 = load i8, ptr %t9
  %t124 = trunc i8 %t123 to i1
  %t125 = xor i1 %t124, true
  br i1 %t125, label %L120, label %L122
L120:
  %t129 = load i32, ptr %t4
  %t130 = icmp uge i32 %t129, 17
  br i1 %t130, label %L126, label %L128
L126:
  %t131 = load i32, ptr %t7
  %t132 = load i32, ptr %t4
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t131, i32 %t132)
  store i8 1, ptr %t9
  br label %L128
L128:
  br label %L122
L122:
  %t133 = load i32, ptr %t1
  %t134 = load i32, ptr %t4
  %t135 = add i32 %t133, %t134
  %t136 = load i32, ptr %t0
  %t137 = mul i32 %t135, %t136
  %t138 = load i32, ptr %t2
  %t139 = add i32 %t137, %t138
  %t140 = load i32, ptr %t3
  %t141 = add i32 %t139, %t140
  store i32 %t141, ptr %t8
  %t145 = load i8, ptr %t9
  %t146 = trunc i8 %t145 to i1
  %t147 = xor i1 %t146, true
  br i1 %t147, label %L142, label %L144
L142:
  %t151 = load i32, ptr %t8
  %t152 = icmp uge i32 %t151, %p2
  br i1 %t152, label %L148, label %L150
L148:
  %t153 = load i32, ptr %t8
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 3, i32 3, i32 %t153, i32 %p2)
  store i8 1, ptr %t9
  br label %L150
L150:
  br label %L144
L144:
  %t157 = load i8, ptr %t9
  %t158 = trunc i8 %t157 to i1
  %t159 = xor i1 %t158, true
  br i1 %t159, label %L154, label %L156
L154:
  %t160 = load i32, ptr %t8
  %t161 = getelementptr float, ptr addrspace(1) %t10, i32 %t160
  %t162 = load i32, ptr %t7
  %t163 = mul i32 %t162, 17
  %t164 = load i32, ptr %t4
  %t165 = add i32 %t163, %t164
  %t166 = getelementptr float, ptr addrspace(3) @gpuc_transposeTile.shared0_tile, i32 %t165
  %t167 = load float, ptr addrspace(3) %t166, align 4
  store float %t167, ptr addrspace(1) %t161, align 4
  br label %L156
L156:
  br label %L100
L100:
  br label %L94
L94:
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"float*", !"uint", !"int", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !"", !""}
