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
  %t26 = getelementptr i8, ptr addrspace(1) %p0, i32 %p1
  %t27 = getelementptr i16, ptr addrspace(1) %p3, i32 %p4
  %t28 = getelementptr i32, ptr addrspace(1) %p6, i32 %p7
  %t29 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t30 = trunc i64 %t29 to i32
  %t31 = call spir_func i64 @_Z14get_local_sizej(i32 0)
  %t32 = trunc i64 %t31 to i32
  %t33 = mul i32 %t30, %t32
  %t34 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t35 = trunc i64 %t34 to i32
  %t36 = add i32 %t33, %t35
  store i32 %t36, ptr %t0
  %t40 = load i32, ptr %t0
  %t41 = icmp sge i32 %t40, %p8
  br i1 %t41, label %L37, label %L39
L37:
  ret void
L39:
  %t45 = load i32, ptr %t0
  %t46 = icmp uge i32 %t45, %p8
  br i1 %t46, label %L42, label %L44
L42:
  %t47 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 2, i32 0, i32 %t47, i32 %p8)
  ret void
L44:
  %t48 = load i32, ptr %t0
  %t49 = getelementptr i32, ptr addrspace(1) %t28, i32 %t48
  %t50 = load i32, ptr addrspace(1) %t49, align 4
  store i32 %t50, ptr %t1
  %t51 = load i32, ptr %t1
  %t52 = and i32 %t51, 15
  store i32 %t52, ptr %t2
  %t56 = load i32, ptr %t2
  %t57 = icmp uge i32 %t56, %p2
  br i1 %t57, label %L53, label %L55
L53:
  %t58 = load i32, ptr %t2
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 3, i32 1, i32 %t58, i32 %p2)
  ret void
L55:
  %t59 = load i32, ptr %t2
  store i32 %t59, ptr %t9
  %t60 = load i32, ptr %t9
  %t61 = getelementptr i8, ptr addrspace(1) %t26, i32 %t60
  %t62 = ptrtoint ptr addrspace(1) %t61 to i64
  %t63 = and i64 %t62, -4
  %t64 = inttoptr i64 %t63 to ptr addrspace(1)
  %t65 = load atomic i32, ptr addrspace(1) %t64 seq_cst, align 4
  store i32 %t65, ptr %t10
  %t66 = load i32, ptr %t9
  %t67 = getelementptr i8, ptr addrspace(1) %t26, i32 %t66
  %t68 = ptrtoint ptr addrspace(1) %t67 to i64
  %t69 = trunc i64 %t68 to i32
  %t70 = and i32 %t69, 3
  %t71 = mul i32 %t70, 8
  store i32 %t71, ptr %t12
  br label %L72
L72:
  %t75 = load i32, ptr %t10
  store i32 %t75, ptr %t11
  %t76 = load i32, ptr %t11
  %t77 = load i32, ptr %t12
  %t78 = ashr i32 %t76, %t77
  %t79 = and i32 %t78, 255
  store i32 %t79, ptr %t13
  %t80 = load i32, ptr %t9
  %t81 = getelementptr i8, ptr addrspace(1) %t26, i32 %t80
  %t82 = load i32, ptr %t11
  %t83 = load i32, ptr %t11
  %t84 = load i32, ptr %t12
  %t85 = shl i32 255, %t84
  %t86 = xor i32 %t85, -1
  %t87 = and i32 %t83, %t86
  %t88 = load i32, ptr %t13
  %t89 = add i32 %t88, 1
  %t90 = and i32 %t89, 255
  %t91 = load i32, ptr %t12
  %t92 = shl i32 %t90, %t91
  %t93 = or i32 %t87, %t92
  %t94 = ptrtoint ptr addrspace(1) %t81 to i64
  %t95 = and i64 %t94, -4
  %t96 = inttoptr i64 %t95 to ptr addrspace(1)
  %t97 = cmpxchg ptr addrspace(1) %t96, i32 %t82, i32 %t93 seq_cst seq_cst, align 4
  %t98 = extractvalue { i32, i1 } %t97, 0
  store i32 %t98, ptr %t10
  br label %L73
L73:
  %t99 = load i32, ptr %t10
  %t100 = load i32, ptr %t11
  %t101 = icmp eq i32 %t99, %t100
  br i1 %t101, label %L74, label %L72
L74:
  %t102 = load i32, ptr %t13
  store i32 %t102, ptr %t3
  %t103 = load i32, ptr %t0
  %t104 = and i32 %t103, 3
  store i32 %t104, ptr %t4
  %t108 = load i32, ptr %t4
  %t109 = icmp uge i32 %t108, %p5
  br i1 %t109, label %L105, label %L107
L105:
  %t110 = load i32, ptr %t4
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 1, i32 2, i32 %t110, i32 %p5)
  ret void
L107:
  %t111 = load i32, ptr %t4
  store i32 %t111, ptr %t14
  %t112 = load i32, ptr %t0
  %t113 = and i32 %t112, 7
  %t114 = and i32 %t113, 31
  %t115 = shl i32 1, %t114
  store i32 %t115, ptr %t15
  %t116 = load i32, ptr %t14
  %t117 = getelementptr i16, ptr addrspace(1) %t27, i32 %t116
  %t118 = ptrtoint ptr addrspace(1) %t117 to i64
  %t119 = and i64 %t118, -4
  %t120 = inttoptr i64 %t119 to ptr addrspace(1)
  %t121 = load atomic i32, ptr addrspace(1) %t120 seq_cst, align 4
  store i32 %t121, ptr %t16
  %t122 = load i32, ptr %t14
  %t123 = getelementptr i16, ptr addrspace(1) %t27, i32 %t122
  %t124 = ptrtoint ptr addrspace(1) %t123 to i64
  %t125 = trunc i64 %t124 to i32
  %t126 = and i32 %t125, 3
  %t127 = mul i32 %t126, 8
  store i32 %t127, ptr %t18
  br label %L128
L128:
  %t131 = load i32, ptr %t16
  store i32 %t131, ptr %t17
  %t132 = load i32, ptr %t17
  %t133 = load i32, ptr %t18
  %t134 = sub i32 16, %t133
  %t135 = shl i32 %t132, %t134
  %t136 = ashr i32 %t135, 16
  store i32 %t136, ptr %t19
  %t137 = load i32, ptr %t14
  %t138 = getelementptr i16, ptr addrspace(1) %t27, i32 %t137
  %t139 = load i32, ptr %t17
  %t140 = load i32, ptr %t17
  %t141 = load i32, ptr %t18
  %t142 = shl i32 65535, %t141
  %t143 = xor i32 %t142, -1
  %t144 = and i32 %t140, %t143
  %t145 = load i32, ptr %t19
  %t146 = load i32, ptr %t15
  %t147 = or i32 %t145, %t146
  %t148 = and i32 %t147, 65535
  %t149 = load i32, ptr %t18
  %t150 = shl i32 %t148, %t149
  %t151 = or i32 %t144, %t150
  %t152 = ptrtoint ptr addrspace(1) %t138 to i64
  %t153 = and i64 %t152, -4
  %t154 = inttoptr i64 %t153 to ptr addrspace(1)
  %t155 = cmpxchg ptr addrspace(1) %t154, i32 %t139, i32 %t151 seq_cst seq_cst, align 4
  %t156 = extractvalue { i32, i1 } %t155, 0
  store i32 %t156, ptr %t16
  br label %L129
L129:
  %t157 = load i32, ptr %t16
  %t158 = load i32, ptr %t17
  %t159 = icmp eq i32 %t157, %t158
  br i1 %t159, label %L130, label %L128
L130:
  %t160 = load i32, ptr %t19
  store i32 %t160, ptr %t5
  %t161 = getelementptr i16, ptr addrspace(1) %t27, i32 0
  %t162 = ptrtoint ptr addrspace(1) %t161 to i64
  %t163 = trunc i64 %t162 to i32
  %t164 = and i32 %t163, 3
  %t165 = mul i32 %t164, 8
  %t166 = ptrtoint ptr addrspace(1) %t161 to i64
  %t167 = and i64 %t166, -4
  %t168 = inttoptr i64 %t167 to ptr addrspace(1)
  %t169 = load atomic i32, ptr addrspace(1) %t168 seq_cst, align 4
  %t170 = sub i32 16, %t165
  %t171 = shl i32 %t169, %t170
  %t172 = ashr i32 %t171, 16
  store i32 %t172, ptr %t6
  %t173 = load i32, ptr %t1
  %t174 = and i32 %t173, 3
  %t175 = add i32 16, %t174
  store i32 %t175, ptr %t7
  %t179 = load i32, ptr %t7
  %t180 = icmp uge i32 %t179, %p2
  br i1 %t180, label %L176, label %L178
L176:
  %t181 = load i32, ptr %t7
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 3, i32 3, i32 %t181, i32 %p2)
  ret void
L178:
  %t182 = load i32, ptr %t7
  store i32 %t182, ptr %t20
  %t183 = load i32, ptr %t6
  %t184 = and i32 %t183, 1
  store i32 %t184, ptr %t21
  %t185 = load i32, ptr %t20
  %t186 = getelementptr i8, ptr addrspace(1) %t26, i32 %t185
  %t187 = ptrtoint ptr addrspace(1) %t186 to i64
  %t188 = and i64 %t187, -4
  %t189 = inttoptr i64 %t188 to ptr addrspace(1)
  %t190 = load atomic i32, ptr addrspace(1) %t189 seq_cst, align 4
  store i32 %t190, ptr %t22
  %t191 = load i32, ptr %t20
  %t192 = getelementptr i8, ptr addrspace(1) %t26, i32 %t191
  %t193 = ptrtoint ptr addrspace(1) %t192 to i64
  %t194 = trunc i64 %t193 to i32
  %t195 = and i32 %t194, 3
  %t196 = mul i32 %t195, 8
  store i32 %t196, ptr %t24
  br label %L197
L197:
  %t200 = load i32, ptr %t22
  store i32 %t200, ptr %t23
  %t201 = load i32, ptr %t23
  %t202 = load i32, ptr %t24
  %t203 = ashr i32 %t201, %t202
  %t204 = and i32 %t203, 255
  store i32 %t204, ptr %t25
  %t205 = load i32, ptr %t20
  %t206 = getelementptr i8, ptr addrspace(1) %t26, i32 %t205
  %t207 = load i32, ptr %t23
  %t208 = load i32, ptr %t23
  %t209 = load i32, ptr %t24
  %t210 = shl i32 255, %t209
  %t211 = xor i32 %t210, -1
  %t212 = and i32 %t208, %t211
  %t213 = load i32, ptr %t25
  %t214 = load i32, ptr %t21
  %t215 = sub i32 %t213, %t214
  %t216 = and i32 %t215, 255
  %t217 = load i32, ptr %t24
  %t218 = shl i32 %t216, %t217
  %t219 = or i32 %t212, %t218
  %t220 = ptrtoint ptr addrspace(1) %t206 to i64
  %t221 = and i64 %t220, -4
  %t222 = inttoptr i64 %t221 to ptr addrspace(1)
  %t223 = cmpxchg ptr addrspace(1) %t222, i32 %t207, i32 %t219 seq_cst seq_cst, align 4
  %t224 = extractvalue { i32, i1 } %t223, 0
  store i32 %t224, ptr %t22
  br label %L198
L198:
  %t225 = load i32, ptr %t22
  %t226 = load i32, ptr %t23
  %t227 = icmp eq i32 %t225, %t226
  br i1 %t227, label %L199, label %L197
L199:
  %t228 = load i32, ptr %t25
  store i32 %t228, ptr %t8
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"uchar*", !"uint", !"int", !"short*", !"uint", !"int", !"int*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !"", !"", !"", !""}
