; gpuc: kernel "integers" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)

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

define spir_kernel void @gpuc_integers(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7, i32 %p8, ptr addrspace(1) %p9, i32 %p10) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
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
  %t10 = getelementptr i32, ptr addrspace(1) %p0, i32 %p1
  %t11 = getelementptr i32, ptr addrspace(1) %p3, i32 %p4
  %t12 = getelementptr i32, ptr addrspace(1) %p6, i32 %p7
  %t13 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t14 = trunc i64 %t13 to i32
  store i32 %t14, ptr %t0
  %t18 = load i32, ptr %t0
  %t19 = icmp uge i32 %t18, %p5
  br i1 %t19, label %L15, label %L17
L15:
  %t20 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 1, i32 0, i32 %t20, i32 %p5)
  ret void
L17:
  %t24 = load i32, ptr %t0
  %t25 = icmp uge i32 %t24, %p8
  br i1 %t25, label %L21, label %L23
L21:
  %t26 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 2, i32 1, i32 %t26, i32 %p8)
  ret void
L23:
  %t27 = load i32, ptr %t0
  %t28 = getelementptr i32, ptr addrspace(1) %t11, i32 %t27
  %t29 = load i32, ptr addrspace(1) %t28, align 4
  store i32 %t29, ptr %t6
  %t30 = load i32, ptr %t0
  %t31 = getelementptr i32, ptr addrspace(1) %t12, i32 %t30
  %t32 = load i32, ptr addrspace(1) %t31, align 4
  store i32 %t32, ptr %t7
  %t33 = load i32, ptr %t7
  %t34 = icmp eq i32 %t33, 0
  %t35 = load i32, ptr %t7
  %t36 = icmp eq i32 %t35, -1
  %t37 = load i32, ptr %t6
  %t38 = sub i32 0, %t37
  %t39 = load i32, ptr %t6
  %t40 = load i32, ptr %t7
  %t41 = icmp eq i32 %t40, 0
  %t42 = load i32, ptr %t7
  %t43 = icmp eq i32 %t42, -1
  %t44 = or i1 %t41, %t43
  %t45 = load i32, ptr %t7
  %t46 = select i1 %t44, i32 1, i32 %t45
  %t47 = sdiv i32 %t39, %t46
  %t48 = select i1 %t36, i32 %t38, i32 %t47
  %t49 = select i1 %t34, i32 0, i32 %t48
  store i32 %t49, ptr %t1
  %t50 = load i32, ptr %t0
  %t51 = getelementptr i32, ptr addrspace(1) %t11, i32 %t50
  %t52 = load i32, ptr addrspace(1) %t51, align 4
  store i32 %t52, ptr %t8
  %t53 = load i32, ptr %t0
  %t54 = getelementptr i32, ptr addrspace(1) %t12, i32 %t53
  %t55 = load i32, ptr addrspace(1) %t54, align 4
  store i32 %t55, ptr %t9
  %t56 = load i32, ptr %t9
  %t57 = icmp eq i32 %t56, 0
  %t58 = load i32, ptr %t9
  %t59 = icmp eq i32 %t58, -1
  %t60 = load i32, ptr %t8
  %t61 = load i32, ptr %t9
  %t62 = icmp eq i32 %t61, 0
  %t63 = load i32, ptr %t9
  %t64 = icmp eq i32 %t63, -1
  %t65 = or i1 %t62, %t64
  %t66 = load i32, ptr %t9
  %t67 = select i1 %t65, i32 1, i32 %t66
  %t68 = srem i32 %t60, %t67
  %t69 = select i1 %t59, i32 0, i32 %t68
  %t70 = select i1 %t57, i32 0, i32 %t69
  store i32 %t70, ptr %t2
  %t71 = load i32, ptr %t0
  %t72 = getelementptr i32, ptr addrspace(1) %t11, i32 %t71
  %t73 = load i32, ptr addrspace(1) %t72, align 4
  %t74 = load i32, ptr %t0
  %t75 = getelementptr i32, ptr addrspace(1) %t12, i32 %t74
  %t76 = load i32, ptr addrspace(1) %t75, align 4
  %t77 = and i32 %t76, 7
  %t78 = and i32 %t77, 31
  %t79 = lshr i32 %t73, %t78
  store i32 %t79, ptr %t3
  %t80 = load i32, ptr %t0
  %t81 = getelementptr i32, ptr addrspace(1) %t11, i32 %t80
  %t82 = load i32, ptr addrspace(1) %t81, align 4
  %t83 = mul i32 %t82, -1640531535
  store i32 %t83, ptr %t4
  %t84 = load i32, ptr %t0
  %t85 = getelementptr i32, ptr addrspace(1) %t11, i32 %t84
  %t86 = load i32, ptr addrspace(1) %t85, align 4
  store i32 %t86, ptr %t5
  %t90 = load i32, ptr %t0
  %t91 = icmp uge i32 %t90, %p2
  br i1 %t91, label %L87, label %L89
L87:
  %t92 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 3, i32 2, i32 %t92, i32 %p2)
  ret void
L89:
  %t93 = load i32, ptr %t0
  %t94 = getelementptr i32, ptr addrspace(1) %t10, i32 %t93
  %t95 = load i32, ptr %t1
  %t96 = load i32, ptr %t2
  %t97 = add i32 %t95, %t96
  %t98 = load i32, ptr %t3
  %t99 = icmp ugt i32 %t98, -296
  %t100 = select i1 %t99, i32 1, i32 0
  %t101 = add i32 %t97, %t100
  %t102 = load i32, ptr %t4
  %t103 = load i32, ptr %t4
  %t104 = ashr i32 %t103, 15
  %t105 = xor i32 %t102, %t104
  %t106 = add i32 %t101, %t105
  %t107 = load i32, ptr %t5
  %t108 = icmp slt i32 %t107, 0
  %t109 = load i32, ptr %t5
  %t110 = load i32, ptr %t3
  %t111 = icmp ult i32 %t109, %t110
  %t112 = select i1 %t108, i1 true, i1 %t111
  %t113 = select i1 %t112, i32 2, i32 0
  %t114 = add i32 %t106, %t113
  store i32 %t114, ptr addrspace(1) %t94, align 4
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"int*", !"uint", !"int", !"int*", !"uint", !"int", !"int*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !"", !"", !"", !""}
