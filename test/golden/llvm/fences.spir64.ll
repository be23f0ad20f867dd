; gpuc: kernel "fences" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func i64 @_Z14get_local_sizej(i32)
declare spir_func i64 @_Z14get_num_groupsj(i32)

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

define spir_kernel void @gpuc_fences(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7, i32 %p8, ptr addrspace(1) %p9, i32 %p10) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
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
  %t12 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t13 = getelementptr i32, ptr addrspace(1) %p3, i32 %p4
  %t14 = getelementptr float, ptr addrspace(1) %p6, i32 %p7
  %t15 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t16 = trunc i64 %t15 to i32
  %t17 = call spir_func i64 @_Z14get_local_sizej(i32 0)
  %t18 = trunc i64 %t17 to i32
  %t19 = mul i32 %t16, %t18
  %t20 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t21 = trunc i64 %t20 to i32
  %t22 = add i32 %t19, %t21
  store i32 %t22, ptr %t0
  %t26 = load i32, ptr %t0
  %t27 = icmp uge i32 %t26, %p8
  br i1 %t27, label %L23, label %L25
L23:
  %t28 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 2, i32 0, i32 %t28, i32 %p8)
  ret void
L25:
  %t32 = load i32, ptr %t0
  %t33 = icmp uge i32 %t32, %p2
  br i1 %t33, label %L29, label %L31
L29:
  %t34 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 3, i32 1, i32 %t34, i32 %p2)
  ret void
L31:
  %t35 = load i32, ptr %t0
  %t36 = getelementptr float, ptr addrspace(1) %t12, i32 %t35
  %t37 = load i32, ptr %t0
  %t38 = getelementptr float, ptr addrspace(1) %t14, i32 %t37
  %t39 = load float, ptr addrspace(1) %t38, align 4
  %t40 = fmul float %t39, 0x4000000000000000
  store float %t40, ptr addrspace(1) %t36, align 4
  fence syncscope("workgroup") seq_cst
  fence syncscope("device") seq_cst
  %t44 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t45 = trunc i64 %t44 to i32
  %t46 = icmp eq i32 %t45, 0
  br i1 %t46, label %L41, label %L43
L41:
  %t50 = icmp uge i32 0, %p5
  br i1 %t50, label %L47, label %L49
L47:
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 1, i32 2, i32 0, i32 %p5)
  ret void
L49:
  %t51 = call spir_func i64 @_Z14get_num_groupsj(i32 0)
  %t52 = trunc i64 %t51 to i32
  store i32 %t52, ptr %t4
  %t53 = getelementptr i32, ptr addrspace(1) %t13, i32 0
  %t54 = load atomic i32, ptr addrspace(1) %t53 seq_cst, align 4
  store i32 %t54, ptr %t5
  br label %L55
L55:
  %t58 = load i32, ptr %t5
  store i32 %t58, ptr %t6
  %t59 = load i32, ptr %t6
  store i32 %t59, ptr %t7
  %t60 = getelementptr i32, ptr addrspace(1) %t13, i32 0
  %t61 = load i32, ptr %t6
  %t62 = load i32, ptr %t7
  %t63 = load i32, ptr %t4
  %t64 = icmp uge i32 %t62, %t63
  %t65 = load i32, ptr %t7
  %t66 = add i32 %t65, 1
  %t67 = select i1 %t64, i32 0, i32 %t66
  %t68 = cmpxchg ptr addrspace(1) %t60, i32 %t61, i32 %t67 seq_cst seq_cst, align 4
  %t69 = extractvalue { i32, i1 } %t68, 0
  store i32 %t69, ptr %t5
  br label %L56
L56:
  %t70 = load i32, ptr %t5
  %t71 = load i32, ptr %t6
  %t72 = icmp eq i32 %t70, %t71
  br i1 %t72, label %L57, label %L55
L57:
  %t73 = load i32, ptr %t7
  store i32 %t73, ptr %t1
  %t74 = load i32, ptr %t1
  store i32 %t74, ptr %t2
  %t78 = icmp uge i32 1, %p5
  br i1 %t78, label %L75, label %L77
L75:
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 1, i32 3, i32 1, i32 %p5)
  ret void
L77:
  %t79 = load i32, ptr %t2
  store i32 %t79, ptr %t8
  %t80 = getelementptr i32, ptr addrspace(1) %t13, i32 1
  %t81 = load atomic i32, ptr addrspace(1) %t80 seq_cst, align 4
  store i32 %t81, ptr %t9
  br label %L82
L82:
  %t85 = load i32, ptr %t9
  store i32 %t85, ptr %t10
  %t86 = load i32, ptr %t10
  store i32 %t86, ptr %t11
  %t87 = getelementptr i32, ptr addrspace(1) %t13, i32 1
  %t88 = load i32, ptr %t10
  %t89 = load i32, ptr %t11
  %t90 = icmp eq i32 %t89, 0
  %t91 = load i32, ptr %t11
  %t92 = load i32, ptr %t8
  %t93 = icmp ugt i32 %t91, %t92
  %t94 = or i1 %t90, %t93
  %t95 = load i32, ptr %t8
  %t96 = load i32, ptr %t11
  %t97 = sub i32 %t96, 1
  %t98 = select i1 %t94, i32 %t95, i32 %t97
  %t99 = cmpxchg ptr addrspace(1) %t87, i32 %t88, i32 %t98 seq_cst seq_cst, align 4
  %t100 = extractvalue { i32, i1 } %t99, 0
  store i32 %t100, ptr %t9
  br label %L83
L83:
  %t101 = load i32, ptr %t9
  %t102 = load i32, ptr %t10
  %t103 = icmp eq i32 %t101, %t102
  br i1 %t103, label %L84, label %L82
L84:
  %t104 = load i32, ptr %t11
  store i32 %t104, ptr %t3
  br label %L43
L43:
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"uint*", !"uint", !"int", !"float*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !"", !"", !"", !""}
