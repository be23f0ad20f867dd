; gpuc: kernel "atomicsNarrow" for spir64
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

define spir_kernel void @gpuc_atomicsNarrow(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7, i32 %p8, ptr addrspace(1) %p9, i32 %p10) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
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
  %t9 = alloca i32, align 4
  store i32 0, ptr %t9
  %t10 = alloca i32, align 4
  store i32 0, ptr %t10
  %t11 = alloca i32, align 4
  store i32 0, ptr %t11
  %t12 = alloca i32, align 4
  store i32 0, ptr %t12
  %t13 = alloca i32, align 4
  store i32 0, ptr %t13
  %t14 = alloca i32, align 4
  store i32 0, ptr %t14
  %t15 = alloca i32, align 4
  store i32 0, ptr %t15
  %t16 = alloca i32, align 4
  store i32 0, ptr %t16
  %t17 = alloca i32, align 4
  store i32 0, ptr %t17
  %t18 = alloca i32, align 4
  store i32 0, ptr %t18
  %t19 = alloca i32, align 4
  store i32 0, ptr %t19
  %t20 = alloca i32, align 4
  store i32 0, ptr %t20
  %t21 = alloca i32, align 4
  store i32 0, ptr %t21
  %t22 = alloca i32, align 4
  store i32 0, ptr %t22
  %t23 = alloca i32, align 4
  store i32 0, ptr %t23
  %t24 = alloca i32, align 4
  store i32 0, ptr %t24
  %t25 = alloca i32, align 4
  store i32 0, ptr %t25
  %t26 = alloca i32, align 4
  store i32 0, ptr %t26
  %t27 = alloca i32, align 4
  store i32 0, ptr %t27
  %t28 = getelementptr i8, ptr addrspace(1) %p0, i32 %p1
  %t29 = getelementptr i16, ptr addrspace(1) %p3, i32 %p4
  %t30 = getelementptr i32, ptr addrspace(1) %p6, i32 %p7
  %t31 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t32 = trunc i64 %t31 to i32
  %t33 = call spir_func i64 @_Z14get_local_sizej(i32 0)
  %t34 = trunc i64 %t33 to i32
  %t35 = mul i32 %t32, %t34
  %t36 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t37 = trunc i64 %t36 to i32
  %t38 = add i32 %t35, %t37
  store i32 %t38, ptr %t0
  %t42 = load i32, ptr %t0
  %t43 = icmp sge i32 %t42, %p8
  br i1 %t43, label %L39, label %L41
L39:
  ret void
L41:
  %t47 = load i32, ptr %t0
  %t48 = icmp uge i32 %t47, %p8
  br i1 %t48, label %L44, label %L46
L44:
  %t49 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 2, i32 0, i32 %t49, i32 %p8)
  ret void
L46:
  %t50 = load i32, ptr %t0
  %t51 = getelementptr i32, ptr addrspace(1) %t30, i32 %t50
  %t52 = load i32, ptr addrspace(1) %t51, align 4
  store i32 %t52, ptr %t1
  %t53 = load i32, ptr %t1
  %t54 = and i32 %t53, 15
  store i32 %t54, ptr %t2
  %t58 = load i32, ptr %t2
  %t59 = icmp uge i32 %t58, %p2
  br i1 %t59, label %L55, label %L57
L55:
  %t60 = load i32, ptr %t2
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 3, i32 1, i32 %t60, i32 %p2)
  ret void
L57:
  %t61 = load i32, ptr %t2
  store i32 %t61, ptr %t9
  %t62 = load i32, ptr %t9
  %t63 = getelementptr i8, ptr addrspace(1) %t28, i32 %t62
  %t64 = ptrtoint ptr addrspace(1) %t63 to i64
  %t65 = and i64 %t64, -4
  %t66 = inttoptr i64 %t65 to ptr addrspace(1)
  %t67 = load atomic i32, ptr addrspace(1) %t66 seq_cst, align 4
  store i32 %t67, ptr %t10
  %t68 = load i32, ptr %t9
  %t69 = getelementptr i8, ptr addrspace(1) %t28, i32 %t68
  %t70 = ptrtoint ptr addrspace(1) %t69 to i64
  %t71 = trunc i64 %t70 to i32
  %t72 = and i32 %t71, 3
  %t73 = mul i32 %t72, 8
  store i32 %t73, ptr %t12
  br label %L74
L74:
  %t77 = load i32, ptr %t10
  store i32 %t77, ptr %t11
  %t78 = load i32, ptr %t11
  %t79 = load i32, ptr %t12
  %t80 = ashr i32 %t78, %t79
  %t81 = and i32 %t80, 255
  store i32 %t81, ptr %t13
  %t82 = load i32, ptr %t9
  %t83 = getelementptr i8, ptr addrspace(1) %t28, i32 %t82
  %t84 = load i32, ptr %t11
  %t85 = load i32, ptr %t11
  %t86 = load i32, ptr %t12
  %t87 = shl i32 255, %t86
  %t88 = xor i32 %t87, -1
  %t89 = and i32 %t85, %t88
  %t90 = load i32, ptr %t13
  %t91 = add i32 %t90, 1
  %t92 = and i32 %t91, 255
  %t93 = load i32, ptr %t12
  %t94 = shl i32 %t92, %t93
  %t95 = or i32 %t89, %t94
  %t96 = ptrtoint ptr addrspace(1) %t83 to i64
  %t97 = and i64 %t96, -4
  %t98 = inttoptr i64 %t97 to ptr addrspace(1)
  %t99 = cmpxchg ptr addrspace(1) %t98, i32 %t84, i32 %t95 seq_cst seq_cst, align 4
  %t100 = extractvalue { i32, i1 } %t99, 0
  store i32 %t100, ptr %t10
  br label %L75
L75:
  %t101 = load i32, ptr %t10
  %t102 = load i32, ptr %t11
  %t103 = icmp eq i32 %t101, %t102
  br i1 %t103, label %L76, label %L74
L76:
  %t104 = load i32, ptr %t13
  store i32 %t104, ptr %t3
  %t105 = load i32, ptr %t0
  %t106 = and i32 %t105, 3
  store i32 %t106, ptr %t4
  %t110 = load i32, ptr %t4
  %t111 = icmp uge i32 %t110, %p5
  br i1 %t111, label %L107, label %L109
L107:
  %t112 = load i32, ptr %t4
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 1, i32 2, i32 %t112, i32 %p5)
  ret void
L109:
  %t113 = load i32, ptr %t4
  store i32 %t113, ptr %t14
  %t114 = load i32, ptr %t0
  %t115 = and i32 %t114, 7
  %t116 = and i32 %t115, 31
  %t117 = shl i32 1, %t116
  store i32 %t117, ptr %t15
  %t118 = load i32, ptr %t14
  %t119 = getelementptr i16, ptr addrspace(1) %t29, i32 %t118
  %t120 = ptrtoint ptr addrspace(1) %t119 to i64
  %t121 = and i64 %t120, -4
  %t122 = inttoptr i64 %t121 to ptr addrspace(1)
  %t123 = load atomic i32, ptr addrspace(1) %t122 seq_cst, align 4
  store i32 %t123, ptr %t16
  %t124 = load i32, ptr %t14
  %t125 = getelementptr i16, ptr addrspace(1) %t29, i32 %t124
  %t126 = ptrtoint ptr addrspace(1) %t125 to i64
  %t127 = trunc i64 %t126 to i32
  %t128 = and i32 %t127, 3
  %t129 = mul i32 %t128, 8
  store i32 %t129, ptr %t18
  br label %L130
L130:
  %t133 = load i32, ptr %t16
  store i32 %t133, ptr %t17
  %t134 = load i32, ptr %t17
  %t135 = load i32, ptr %t18
  %t136 = sub i32 16, %t135
  %t137 = shl i32 %t134, %t136
  %t138 = ashr i32 %t137, 16
  store i32 %t138, ptr %t19
  %t139 = load i32, ptr %t14
  %t140 = getelementptr i16, ptr addrspace(1) %t29, i32 %t139
  %t141 = load i32, ptr %t17
  %t142 = load i32, ptr %t17
  %t143 = load i32, ptr %t18
  %t144 = shl i32 65535, %t143
  %t145 = xor i32 %t144, -1
  %t146 = and i32 %t142, %t145
  %t147 = load i32, ptr %t19
  %t148 = load i32, ptr %t15
  %t149 = or i32 %t147, %t148
  %t150 = and i32 %t149, 65535
  %t151 = load i32, ptr %t18
  %t152 = shl i32 %t150, %t151
  %t153 = or i32 %t146, %t152
  %t154 = ptrtoint ptr addrspace(1) %t140 to i64
  %t155 = and i64 %t154, -4
  %t156 = inttoptr i64 %t155 to ptr addrspace(1)
  %t157 = cmpxchg ptr addrspace(1) %t156, i32 %t141, i32 %t153 seq_cst seq_cst, align 4
  %t158 = extractvalue { i32, i1 } %t157, 0
  store i32 %t158, ptr %t16
  br label %L131
L131:
  %t159 = load i32, ptr %t16
  %t160 = load i32, ptr %t17
  %t161 = icmp eq i32 %t159, %t160
  br i1 %t161, label %L132, label %L130
L132:
  %t162 = load i32, ptr %t19
  store i32 %t162, ptr %t5
  %t163 = getelementptr i16, ptr addrspace(1) %t29, i32 0
  %t164 = ptrtoint ptr addrspace(1) %t163 to i64
  %t165 = and i64 %t164, -4
  %t166 = inttoptr i64 %t165 to ptr addrspace(1)
  %t167 = load atomic i32, ptr addrspace(1) %t166 seq_cst, align 4
  store i32 %t167, ptr %t20
  %t168 = getelementptr i16, ptr addrspace(1) %t29, i32 0
  %t169 = ptrtoint ptr addrspace(1) %t168 to i64
  %t170 = trunc i64 %t169 to i32
  %t171 = and i32 %t170, 3
  %t172 = mul i32 %t171, 8
  store i32 %t172, ptr %t21
  %t173 = load i32, ptr %t20
  %t174 = load i32, ptr %t21
  %t175 = sub i32 16, %t174
  %t176 = shl i32 %t173, %t175
  %t177 = ashr i32 %t176, 16
  store i32 %t177, ptr %t6
  %t178 = load i32, ptr %t1
  %t179 = and i32 %t178, 3
  %t180 = add i32 16, %t179
  store i32 %t180, ptr %t7
  %t184 = load i32, ptr %t7
  %t185 = icmp uge i32 %t184, %p2
  br i1 %t185, label %L181, label %L183
L181:
  %t186 = load i32, ptr %t7
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 3, i32 3, i32 %t186, i32 %p2)
  ret void
L183:
  %t187 = load i32, ptr %t7
  store i32 %t187, ptr %t22
  %t188 = load i32, ptr %t6
  %t189 = and i32 %t188, 1
  store i32 %t189, ptr %t23
  %t190 = load i32, ptr %t22
  %t191 = getelementptr i8, ptr addrspace(1) %t28, i32 %t190
  %t192 = ptrtoint ptr addrspace(1) %t191 to i64
  %t193 = and i64 %t192, -4
  %t194 = inttoptr i64 %t193 to ptr addrspace(1)
  %t195 = load atomic i32, ptr addrspace(1) %t194 seq_cst, align 4
  store i32 %t195, ptr %t24
  %t196 = load i32, ptr %t22
  %t197 = getelementptr i8, ptr addrspace(1) %t28, i32 %t196
  %t198 = ptrtoint ptr addrspace(1) %t197 to i64
  %t199 = trunc i64 %t198 to i32
  %t200 = and i32 %t199, 3
  %t201 = mul i32 %t200, 8
  store i32 %t201, ptr %t26
  br label %L202
L202:
  %t205 = load i32, ptr %t24
  store i32 %t205, ptr %t25
  %t206 = load i32, ptr %t25
  %t207 = load i32, ptr %t26
  %t208 = ashr i32 %t206, %t207
  %t209 = and i32 %t208, 255
  store i32 %t209, ptr %t27
  %t210 = load i32, ptr %t22
  %t211 = getelementptr i8, ptr addrspace(1) %t28, i32 %t210
  %t212 = load i32, ptr %t25
  %t213 = load i32, ptr %t25
  %t214 = load i32, ptr %t26
  %t215 = shl i32 255, %t214
  %t216 = xor i32 %t215, -1
  %t217 = and i32 %t213, %t216
  %t218 = load i32, ptr %t27
  %t219 = load i32, ptr %t23
  %t220 = sub i32 %t218, %t219
  %t221 = and i32 %t220, 255
  %t222 = load i32, ptr %t26
  %t223 = shl i32 %t221, %t222
  %t224 = or i32 %t217, %t223
  %t225 = ptrtoint ptr addrspace(1) %t211 to i64
  %t226 = and i64 %t225, -4
  %t227 = inttoptr i64 %t226 to ptr addrspace(1)
  %t228 = cmpxchg ptr addrspace(1) %t227, i32 %t212, i32 %t224 seq_cst seq_cst, align 4
  %t229 = extractvalue { i32, i1 } %t228, 0
  store i32 %t229, ptr %t24
  br label %L203
L203:
  %t230 = load i32, ptr %t24
  %t231 = load i32, ptr %t25
  %t232 = icmp eq i32 %t230, %t231
  br i1 %t232, label %L204, label %L202
L204:
  %t233 = load i32, ptr %t27
  store i32 %t233, ptr %t8
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"uchar*", !"uint", !"int", !"short*", !"uint", !"int", !"int*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !"", !"", !"", !""}
