; gpuc: kernel "raises" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare float @llvm.sqrt.f32(float)
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

define internal spir_func i32 @gpuc_rt1_gpuc_print_reserve(ptr addrspace(1) %p0, i32 %p1, i32 %p2, i32 %p3) {
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
  store i32 %p2, ptr %t0
  store i32 %p3, ptr %t1
  %t6 = load i32, ptr %t1
  %t7 = add i32 %t6, 7
  store i32 %t7, ptr %t2
  %t8 = getelementptr i32, ptr addrspace(1) %p0, i32 27
  %t9 = load i32, ptr %t2
  %t10 = atomicrmw add ptr addrspace(1) %t8, i32 %t9 seq_cst, align 4
  store i32 %t10, ptr %t3
  %t11 = load i32, ptr %t3
  %t12 = add i32 32, %t11
  store i32 %t12, ptr %t4
  %t16 = load i32, ptr %t4
  %t17 = load i32, ptr %t2
  %t18 = add i32 %t16, %t17
  %t19 = icmp sgt i32 %t18, %p1
  br i1 %t19, label %L13, label %L15
L13:
  %t20 = getelementptr i32, ptr addrspace(1) %p0, i32 28
  %t21 = atomicrmw add ptr addrspace(1) %t20, i32 1 seq_cst, align 4
  store i32 %t21, ptr %t5
  ret i32 -1
L15:
  %t22 = load i32, ptr %t4
  %t23 = getelementptr i32, ptr addrspace(1) %p0, i32 %t22
  %t24 = load i32, ptr %t0
  store i32 %t24, ptr addrspace(1) %t23, align 4
  %t25 = load i32, ptr %t4
  %t26 = add i32 %t25, 1
  %t27 = getelementptr i32, ptr addrspace(1) %p0, i32 %t26
  %t28 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t29 = trunc i64 %t28 to i32
  store i32 %t29, ptr addrspace(1) %t27, align 4
  %t30 = load i32, ptr %t4
  %t31 = add i32 %t30, 2
  %t32 = getelementptr i32, ptr addrspace(1) %p0, i32 %t31
  %t33 = call spir_func i64 @_Z12get_local_idj(i32 1)
  %t34 = trunc i64 %t33 to i32
  store i32 %t34, ptr addrspace(1) %t32, align 4
  %t35 = load i32, ptr %t4
  %t36 = add i32 %t35, 3
  %t37 = getelementptr i32, ptr addrspace(1) %p0, i32 %t36
  %t38 = call spir_func i64 @_Z12get_local_idj(i32 2)
  %t39 = trunc i64 %t38 to i32
  store i32 %t39, ptr addrspace(1) %t37, align 4
  %t40 = load i32, ptr %t4
  %t41 = add i32 %t40, 4
  %t42 = getelementptr i32, ptr addrspace(1) %p0, i32 %t41
  %t43 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %t44 = trunc i64 %t43 to i32
  store i32 %t44, ptr addrspace(1) %t42, align 4
  %t45 = load i32, ptr %t4
  %t46 = add i32 %t45, 5
  %t47 = getelementptr i32, ptr addrspace(1) %p0, i32 %t46
  %t48 = call spir_func i64 @_Z12get_group_idj(i32 1)
  %t49 = trunc i64 %t48 to i32
  store i32 %t49, ptr addrspace(1) %t47, align 4
  %t50 = load i32, ptr %t4
  %t51 = add i32 %t50, 6
  %t52 = getelementptr i32, ptr addrspace(1) %p0, i32 %t51
  %t53 = call spir_func i64 @_Z12get_group_idj(i32 2)
  %t54 = trunc i64 %t53 to i32
  store i32 %t54, ptr addrspace(1) %t52, align 4
  %t55 = load i32, ptr %t4
  %t56 = add i32 %t55, 7
  ret i32 %t56
}

define spir_kernel void @gpuc_raises(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %t0 = alloca i32, align 4
  store i32 0, ptr %t0
  %t1 = alloca i32, align 4
  store i32 0, ptr %t1
  %t2 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t3 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t4 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t5 = trunc i64 %t4 to i32
  store i32 %t5, ptr %t0
  %t9 = load i32, ptr %t0
  %t10 = icmp uge i32 %t9, %p5
  br i1 %t10, label %L6, label %L8
L6:
  %t11 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 2, i32 0, i32 %t11, i32 %p5)
  ret void
L8:
  %t15 = load i32, ptr %t0
  %t16 = getelementptr float, ptr addrspace(1) %t3, i32 %t15
  %t17 = load float, ptr addrspace(1) %t16, align 4
  %t18 = fcmp olt float %t17, 0x0000000000000000
  br i1 %t18, label %L12, label %L14
L12:
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 1, i32 0, i32 0)
  ret void
L14:
  %t22 = load i32, ptr %t0
  %t23 = getelementptr float, ptr addrspace(1) %t3, i32 %t22
  %t24 = load float, ptr addrspace(1) %t23, align 4
  %t25 = fcmp ogt float %t24, 0x4059000000000000
  br i1 %t25, label %L19, label %L21
L19:
  %t26 = call spir_func i32 @gpuc_rt1_gpuc_print_reserve(ptr addrspace(1) %p6, i32 %p7, i32 0, i32 2)
  store i32 %t26, ptr %t1
  %t30 = load i32, ptr %t1
  %t31 = icmp sge i32 %t30, 0
  br i1 %t31, label %L27, label %L29
L27:
  %t32 = load i32, ptr %t1
  %t33 = getelementptr i32, ptr addrspace(1) %p6, i32 %t32
  %t34 = load i32, ptr %t0
  %t35 = getelementptr float, ptr addrspace(1) %t3, i32 %t34
  %t36 = load float, ptr addrspace(1) %t35, align 4
  %t37 = bitcast float %t36 to i32
  store i32 %t37, ptr addrspace(1) %t33, align 4
  %t38 = load i32, ptr %t1
  %t39 = add i32 %t38, 1
  %t40 = getelementptr i32, ptr addrspace(1) %p6, i32 %t39
  %t41 = load i32, ptr %t0
  store i32 %t41, ptr addrspace(1) %t40, align 4
  br label %L29
L29:
  br label %L21
L21:
  %t45 = load i32, ptr %t0
  %t46 = icmp uge i32 %t45, %p2
  br i1 %t46, label %L42, label %L44
L42:
  %t47 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 3, i32 2, i32 %t47, i32 %p2)
  ret void
L44:
  %t48 = load i32, ptr %t0
  %t49 = getelementptr float, ptr addrspace(1) %t2, i32 %t48
  %t50 = load i32, ptr %t0
  %t51 = getelementptr float, ptr addrspace(1) %t3, i32 %t50
  %t52 = load float, ptr addrspace(1) %t51, align 4
  %t53 = call float @llvm.sqrt.f32(float %t52)
  store float %t53, ptr addrspace(1) %t49, align 4
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"float*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !""}
