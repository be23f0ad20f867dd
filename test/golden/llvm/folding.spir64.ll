; gpuc: kernel "folding" for spir64
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare float @llvm.sin.f32(float)
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

define spir_kernel void @gpuc_folding(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %t0 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t4 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t5 = trunc i64 %t4 to i32
  %t6 = icmp uge i32 %t5, %p2
  br i1 %t6, label %L1, label %L3
L1:
  %t7 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t8 = trunc i64 %t7 to i32
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p3, i32 %p4, i32 1, i32 0, i32 %t8, i32 %p2)
  ret void
L3:
  %t9 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t10 = trunc i64 %t9 to i32
  %t11 = getelementptr float, ptr addrspace(1) %t0, i32 %t10
  %t12 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t13 = trunc i64 %t12 to i32
  %t14 = sitofp i32 %t13 to float
  %t15 = fmul float 0x3FE921FB60000000, %t14
  %t16 = call float @llvm.sin.f32(float %t15)
  %t17 = fadd float %t16, 0x4031000000000000
  store float %t17, ptr addrspace(1) %t11, align 4
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !""}
