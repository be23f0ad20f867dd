; gpuc: kernel "switchAndShortCircuit" for spir64
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

define spir_kernel void @gpuc_switchAndShortCircuit(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %t0 = alloca i32, align 4
  store i32 0, ptr %t0
  %t1 = alloca i32, align 4
  store i32 0, ptr %t1
  %t2 = alloca i8, align 4
  store i8 0, ptr %t2
  %t3 = getelementptr i32, ptr addrspace(1) %p0, i32 %p1
  %t4 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t5 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t6 = trunc i64 %t5 to i32
  store i32 %t6, ptr %t0
  store i32 0, ptr %t1
  %t7 = load i32, ptr %t0
  %t8 = and i32 %t7, 3
  switch i32 %t8, label %L12 [i32 0, label %L10 i32 1, label %L11 i32 2, label %L11]
L10:
  store i32 1, ptr %t1
  br label %L9
L11:
  store i32 2, ptr %t1
  br label %L12
L12:
  %t13 = load i32, ptr %t1
  %t14 = add i32 %t13, 10
  store i32 %t14, ptr %t1
  br label %L9
L9:
  %t15 = load i32, ptr %t0
  %t16 = icmp slt i32 %t15, %p5
  %t17 = zext i1 %t16 to i8
  store i8 %t17, ptr %t2
  %t21 = load i8, ptr %t2
  %t22 = trunc i8 %t21 to i1
  br i1 %t22, label %L18, label %L20
L18:
  %t26 = load i32, ptr %t0
  %t27 = icmp uge i32 %t26, %p5
  br i1 %t27, label %L23, label %L25
L23:
  %t28 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 0, i32 %t28, i32 %p5)
  ret void
L25:
  %t29 = load i32, ptr %t0
  %t30 = getelementptr float, ptr addrspace(1) %t4, i32 %t29
  %t31 = load float, ptr addrspace(1) %t30, align 4
  %t32 = fcmp ogt float %t31, 0x0000000000000000
  %t33 = zext i1 %t32 to i8
  store i8 %t33, ptr %t2
  br label %L20
L20:
  %t37 = load i8, ptr %t2
  %t38 = trunc i8 %t37 to i1
  br i1 %t38, label %L34, label %L36
L34:
  %t39 = load i32, ptr %t1
  %t40 = add i32 %t39, 100
  store i32 %t40, ptr %t1
  br label %L36
L36:
  %t44 = load i32, ptr %t0
  %t45 = icmp uge i32 %t44, %p2
  br i1 %t45, label %L41, label %L43
L41:
  %t46 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 2, i32 1, i32 %t46, i32 %p2)
  ret void
L43:
  %t47 = load i32, ptr %t0
  %t48 = getelementptr i32, ptr addrspace(1) %t3, i32 %t47
  %t49 = load i32, ptr %t1
  store i32 %t49, ptr addrspace(1) %t48, align 4
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"int*", !"uint", !"int", !"float*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !""}
