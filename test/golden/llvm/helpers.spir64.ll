; gpuc: kernel "helpers" for spir64
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

define spir_kernel void @gpuc_helpers(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %t0 = alloca i32, align 4
  store i32 0, ptr %t0
  %t1 = alloca float, align 4
  store float 0.0, ptr %t1
  %t2 = alloca i32, align 4
  store i32 0, ptr %t2
  %t3 = alloca i32, align 4
  store i32 0, ptr %t3
  %t4 = alloca float, align 4
  store float 0.0, ptr %t4
  %t5 = alloca i32, align 4
  store i32 0, ptr %t5
  %t6 = alloca float, align 4
  store float 0.0, ptr %t6
  %t7 = alloca float, align 4
  store float 0.0, ptr %t7
  %t8 = alloca i32, align 4
  store i32 0, ptr %t8
  %t9 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t10 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t11 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t12 = trunc i64 %t11 to i32
  store i32 %t12, ptr %t0
  %t16 = load i32, ptr %t0
  %t17 = icmp uge i32 %t16, %p5
  br i1 %t17, label %L13, label %L15
L13:
  %t18 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 0, i32 %t18, i32 %p5)
  ret void
L15:
  %t19 = load i32, ptr %t0
  %t20 = getelementptr float, ptr addrspace(1) %t10, i32 %t19
  %t21 = load float, ptr addrspace(1) %t20, align 4
  store float %t21, ptr %t4
  store i32 1, ptr %t5
  store float 0x3FD0000000000000, ptr %t6
  %t22 = load float, ptr %t4
  %t23 = load i32, ptr %t5
  %t24 = sitofp i32 %t23 to float
  %t25 = load float, ptr %t4
  %t26 = fsub float %t24, %t25
  %t27 = load float, ptr %t6
  %t28 = fmul float %t26, %t27
  %t29 = fadd float %t22, %t28
  store float %t29, ptr %t1
  %t30 = load i32, ptr %t0
  %t31 = getelementptr float, ptr addrspace(1) %t10, i32 %t30
  %t32 = load float, ptr addrspace(1) %t31, align 4
  store float %t32, ptr %t7
  br label %L33
L33:
  %t39 = load float, ptr %t7
  %t40 = fcmp ogt float %t39, 0x0000000000000000
  br i1 %t40, label %L36, label %L38
L36:
  store i32 1, ptr %t2
  br label %L35
L38:
  %t44 = load float, ptr %t7
  %t45 = fcmp olt float %t44, 0x0000000000000000
  br i1 %t45, label %L41, label %L43
L41:
  store i32 -1, ptr %t2
  br label %L35
L43:
  store i32 0, ptr %t2
  br label %L35
L34:
  br label %L33
L35:
  %t46 = load i32, ptr %t0
  %t47 = sub i32 %t46, 2
  store i32 %t47, ptr %t8
  br label %L48
L48:
  %t54 = load i32, ptr %t8
  %t55 = icmp sgt i32 %t54, 0
  br i1 %t55, label %L51, label %L53
L51:
  store i32 1, ptr %t3
  br label %L50
L53:
  %t59 = load i32, ptr %t8
  %t60 = icmp slt i32 %t59, 0
  br i1 %t60, label %L56, label %L58
L56:
  store i32 -1, ptr %t3
  br label %L50
L58:
  store i32 0, ptr %t3
  br label %L50
L49:
  br label %L48
L50:
  %t64 = load i32, ptr %t0
  %t65 = icmp uge i32 %t64, %p2
  br i1 %t65, label %L61, label %L63
L61:
  %t66 = load i32, ptr %t0
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 2, i32 1, i32 %t66, i32 %p2)
  ret void
L63:
  %t67 = load i32, ptr %t0
  %t68 = getelementptr float, ptr addrspace(1) %t9, i32 %t67
  %t69 = load float, ptr %t1
  %t70 = load i32, ptr %t2
  %t71 = sitofp i32 %t70 to float
  %t72 = fmul float %t69, %t71
  %t73 = load i32, ptr %t3
  %t74 = sitofp i32 %t73 to float
  %t75 = fadd float %t72, %t74
  store float %t75, ptr addrspace(1) %t68, align 4
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"float*", !"uint", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !"", !"", !""}
