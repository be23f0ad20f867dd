; gpuc: kernel "blockSum" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@gpuc_blockSum.shared0_s = internal addrspace(3) global [64 x float] undef, align 4

declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z14get_local_sizej(i32)
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

define spir_kernel void @gpuc_blockSum(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, i32 %p6, ptr addrspace(1) %p7, i32 %p8) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
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
  %t6 = alloca i1, align 4
  store i1 false, ptr %t6
  %t7 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t8 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  store i32 %p6, ptr %t0
  %t9 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t10 = trunc i64 %t9 to i32
  store i32 %t10, ptr %t1
  %t11 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t12 = trunc i64 %t11 to i32
  %t13 = call spir_func i64 @_Z14get_local_sizej(i32 0)
  %t14 = trunc i64 %t13 to i32
  %t15 = mul i32 %t12, %t14
  %t16 = load i32, ptr %t1
  %t17 = add i32 %t15, %t16
  store i32 %t17, ptr %t2
  %t21 = load i32, ptr %t2
  %t22 = load i32, ptr %t0
  %t23 = add i32 %t22, 64
  %t24 = icmp sge i32 %t21, %t23
  br i1 %t24, label %L18, label %L20
L18:
  store i1 true, ptr %t6
  br label %L20
L20:
  %t28 = load i1, ptr %t6
  %t29 = xor i1 %t28, true
  br i1 %t29, label %L25, label %L27
L25:
  %t33 = load i32, ptr %t2
  %t34 = load i32, ptr %t0
  %t35 = icmp slt i32 %t33, %t34
  br i1 %t35, label %L30, label %L31
L30:
  %t39 = load i32, ptr %t2
  %t40 = icmp uge i32 %t39, %p5
  br i1 %t40, label %L36, label %L38
L36:
  %t41 = load i32, ptr %t2
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 3, i32 0, i32 %t41, i32 %p5)
  store i1 true, ptr %t6
  br label %L38
L38:
  %t45 = load i1, ptr %t6
  %t46 = xor i1 %t45, true
  br i1 %t46, label %L42, label %L44
L42:
  %t47 = load i32, ptr %t2
  %t48 = getelementptr float, ptr addrspace(1) %t8, i32 %t47
  %t49 = load float, ptr addrspace(1) %t48, align 4
  store float %t49, ptr %t3
  br label %L44
L44:
  br label %L32
L31:
  store float 0x0000000000000000, ptr %t3
  br label %L32
L32:
  br label %L27
L27:
  %t53 = load i1, ptr %t6
  %t54 = xor i1 %t53, true
  br i1 %t54, label %L50, label %L52
L50:
  %t58 = load i32, ptr %t1
  %t59 = icmp uge i32 %t58, 64
  br i1 %t59, label %L55, label %L57
L55:
  %t60 = load i32, ptr %t1
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 1, i32 1, i32 %t60, i32 64)
  store i1 true, ptr %t6
  br label %L57
L57:
  br label %L52
L52:
  %t64 = load i1, ptr %t6
  %t65 = xor i1 %t64, true
  br i1 %t65, label %L61, label %L63
L61:
  %t66 = load i32, ptr %t1
  %t67 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t66
  %t68 = load float, ptr %t3
  store float %t68, ptr addrspace(3) %t67, align 4
  br label %L63
L63:
  call spir_func void @_Z7barrierj(i32 3)
  store i32 32, ptr %t4
  br label %L69
L69:
  %t75 = load i32, ptr %t4
  %t76 = icmp sgt i32 %t75, 0
  %t77 = xor i1 %t76, true
  br i1 %t77, label %L72, label %L74
L72:
  br label %L71
L74:
  %t81 = load i1, ptr %t6
  %t82 = xor i1 %t81, true
  br i1 %t82, label %L78, label %L80
L78:
  %t86 = load i32, ptr %t1
  %t87 = load i32, ptr %t4
  %t88 = icmp slt i32 %t86, %t87
  br i1 %t88, label %L83, label %L85
L83:
  %t89 = load i32, ptr %t1
  %t90 = load i32, ptr %t4
  %t91 = add i32 %t89, %t90
  store i32 %t91, ptr %t5
  %t92 = load i32, ptr %t1
  %t93 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t92
  %t94 = load i32, ptr %t1
  %t95 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t94
  %t96 = load float, ptr addrspace(3) %t95, align 4
  %t97 = load i32, ptr %t5
  %t98 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t97
  %t99 = load float, ptr addrspace(3) %t98, align 4
  %t100 = fadd float %t96, %t99
  store float %t100, ptr addrspace(3) %t93, align 4
  br label %L85
L85:
  br label %L80
L80:
  call spir_func void @_Z7barrierj(i32 3)
  br label %L70
L70:
  %t101 = load i32, ptr %t4
  %t102 = ashr i32 %t101, 1
  store i32 %t102, ptr %t4
  br label %L69
L71:
  %t106 = load i1, ptr %t6
  %t107 = xor i1 %t106, true
  br i1 %t107, label %L103, label %L105
L103:
  %t111 = load i32, ptr %t1
  %t112 = icmp eq i32 %t111, 0
  br i1 %t112, label %L108, label %L110
L108:
  %t116 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t117 = trunc i64 %t116 to i32
  %t118 = icmp uge i32 %t117, %p2
  br i1 %t118, label %L113, label %L115
L113:
  %t119 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t120 = trunc i64 %t119 to i32
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t120, i32 %p2)
  store i1 true, ptr %t6
  br label %L115
L115:
  %t124 = load i1, ptr %t6
  %t125 = xor i1 %t124, true
  br i1 %t125, label %L121, label %L123
L121:
  %t126 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t127 = trunc i64 %t126 to i32
  %t128 = getelementptr float, ptr addrspace(1) %t7, i32 %t127
  %t129 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 0
  %t130 = load float, ptr addrspace(3) %t129, align 4
  store float %t130, ptr addrspace(1) %t128, align 4
  br label %L123
L123:
  br label %L110
L110:
  br label %L105
L105:
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"float*", !"uint", !"int", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !"", !""}
