; gpuc: kernel "views" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
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

define spir_kernel void @gpuc_views(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
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
  %t6 = alloca float, align 4
  store float 0.0, ptr %t6
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
  %t13 = alloca float, align 4
  store float 0.0, ptr %t13
  %t14 = alloca i32, align 4
  store i32 0, ptr %t14
  %t15 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t16 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t17 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t18 = trunc i64 %t17 to i32
  store i32 %t18, ptr %t0
  store i32 %p5, ptr %t1
  %t19 = load i32, ptr %t0
  %t20 = icmp slt i32 %t19, 0
  %t21 = load i32, ptr %t1
  %t22 = load i32, ptr %t0
  %t23 = add i32 %t21, %t22
  %t24 = call i32 @llvm.smax.i32(i32 %t23, i32 0)
  %t25 = load i32, ptr %t0
  %t26 = load i32, ptr %t1
  %t27 = call i32 @llvm.smin.i32(i32 %t25, i32 %t26)
  %t28 = select i1 %t20, i32 %t24, i32 %t27
  store i32 %t28, ptr %t2
  %t29 = load i32, ptr %t0
  %t30 = add i32 %t29, 4
  store i32 %t30, ptr %t3
  %t31 = load i32, ptr %t3
  %t32 = icmp slt i32 %t31, 0
  %t33 = load i32, ptr %t1
  %t34 = load i32, ptr %t3
  %t35 = add i32 %t33, %t34
  %t36 = call i32 @llvm.smax.i32(i32 %t35, i32 0)
  %t37 = load i32, ptr %t3
  %t38 = load i32, ptr %t1
  %t39 = call i32 @llvm.smin.i32(i32 %t37, i32 %t38)
  %t40 = select i1 %t32, i32 %t36, i32 %t39
  %t41 = load i32, ptr %t2
  %t42 = sub i32 %t40, %t41
  %t43 = call i32 @llvm.smax.i32(i32 %t42, i32 0)
  store i32 %t43, ptr %t4
  %t44 = load i32, ptr %t2
  store i32 %t44, ptr %t5
  %t45 = load i32, ptr %t5
  store i32 %t45, ptr %t11
  %t46 = load i32, ptr %t4
  store i32 %t46, ptr %t12
  store float 0x0000000000000000, ptr %t13
  store i32 0, ptr %t14
  br label %L47
L47:
  %t53 = load i32, ptr %t14
  %t54 = load i32, ptr %t12
  %t55 = icmp slt i32 %t53, %t54
  %t56 = xor i1 %t55, true
  br i1 %t56, label %L50, label %L52
L50:
  br label %L49
L52:
  %t57 = load float, ptr %t13
  %t58 = load i32, ptr %t11
  %t59 = load i32, ptr %t14
  %t60 = add i32 %t58, %t59
  %t61 = getelementptr float, ptr addrspace(1) %t16, i32 %t60
  %t62 = load float, ptr addrspace(1) %t61, align 4
  %t63 = fadd float %t57, %t62
  store float %t63, ptr %t13
  br label %L48
L48:
  %t64 = load i32, ptr %t14
  %t65 = add i32 %t64, 1
  store i32 %t65, ptr %t14
  br label %L47
L49:
  %t66 = load float, ptr %t13
  store float %t66, ptr %t6
  store i32 %p5, ptr %t7
  %t67 = load i32, ptr %t7
  %t68 = add i32 %t67, -2
  %t69 = call i32 @llvm.smax.i32(i32 %t68, i32 0)
  store i32 %t69, ptr %t8
  %t70 = load i32, ptr %t7
  %t71 = load i32, ptr %t8
  %t72 = sub i32 %t70, %t71
  %t73 = call i32 @llvm.smax.i32(i32 %t72, i32 0)
  store i32 %t73, ptr %t9
  %t74 = load i32, ptr %t8
  store i32 %t74, ptr %t10
  %t78 = load i32, ptr %t9
  %t79 = icmp uge i32 0, %t78
  br i1 %t79, label %L75, label %L77
L75:
  %t80 = load i32, ptr %t9
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 0, i32 0, i32 %t80)
  ret void
L77:
  %t84 = load i32, ptr %t0
  %t85 = icmp uge i32 %t84, %p2
  br i1 %t85, label %L81, label %L83
L81:
  %t86 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 3, i32 1, i32 %t86, i32 %p2)
  ret void
L83:
  %t87 = load i32, ptr %t0
  %t88 = getelementptr float, ptr addrspace(1) %t15, i32 %t87
  %t89 = load float, ptr %t6
  %t90 = load i32, ptr %t4
  %t91 = sitofp i32 %t90 to float
  %t92 = fadd float %t89, %t91
  %t93 = load i32, ptr %t10
  %t94 = getelementptr float, ptr addrspace(1) %t16, i32 %t93
  %t95 = load float, ptr addrspace(1) %t94, align 4
  %t96 = fadd float %t92, %t95
  store float %t96, ptr addrspace(1) %t88, align 4
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"float*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !""}
