; gpuc: kernel "loops" for spir64
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

define spir_kernel void @gpuc_loops(ptr addrspace(1) %p0, i32 %p1, i32 %p2, i32 %p3, ptr addrspace(1) %p4, i32 %p5) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %t0 = alloca i32, align 4
  store i32 0, ptr %t0
  %t1 = alloca i32, align 4
  store i32 0, ptr %t1
  %t2 = alloca float, align 4
  store float 0.0, ptr %t2
  %t3 = alloca i32, align 4
  store i32 0, ptr %t3
  %t4 = alloca i32, align 4
  store i32 0, ptr %t4
  %t5 = alloca i32, align 4
  store i32 0, ptr %t5
  %t6 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  store i32 %p3, ptr %t0
  %t7 = call spir_func i64 @_Z12get_local_idj(i32 0)
  %t8 = trunc i64 %t7 to i32
  store i32 %t8, ptr %t1
  store float 0x0000000000000000, ptr %t2
  store i32 0, ptr %t3
  br label %L9
L9:
  %t15 = load i32, ptr %t3
  %t16 = load i32, ptr %t0
  %t17 = icmp slt i32 %t15, %t16
  %t18 = xor i1 %t17, true
  br i1 %t18, label %L12, label %L14
L12:
  br label %L11
L14:
  %t22 = load i32, ptr %t3
  %t23 = srem i32 %t22, 3
  %t24 = icmp eq i32 %t23, 0
  br i1 %t24, label %L19, label %L21
L19:
  br label %L10
L21:
  %t28 = load i32, ptr %t3
  %t29 = icmp sgt i32 %t28, 20
  br i1 %t29, label %L25, label %L27
L25:
  br label %L11
L27:
  %t30 = load float, ptr %t2
  %t31 = load i32, ptr %t3
  %t32 = sitofp i32 %t31 to float
  %t33 = fmul float %t32, 0x3FE0000000000000
  %t34 = fadd float %t30, %t33
  store float %t34, ptr %t2
  br label %L10
L10:
  %t35 = load i32, ptr %t3
  %t36 = add i32 %t35, 1
  store i32 %t36, ptr %t3
  br label %L9
L11:
  store i32 0, ptr %t4
  br label %L37
L37:
  %t43 = load i32, ptr %t4
  %t44 = load i32, ptr %t4
  %t45 = mul i32 %t43, %t44
  %t46 = load i32, ptr %t1
  %t47 = icmp slt i32 %t45, %t46
  %t48 = xor i1 %t47, true
  br i1 %t48, label %L40, label %L42
L40:
  br label %L39
L42:
  %t49 = load i32, ptr %t4
  %t50 = add i32 %t49, 1
  store i32 %t50, ptr %t4
  br label %L38
L38:
  br label %L37
L39:
  store i32 0, ptr %t5
  br label %L51
L51:
  %t54 = load i32, ptr %t5
  %t55 = add i32 %t54, 2
  store i32 %t55, ptr %t5
  br label %L52
L52:
  %t56 = load i32, ptr %t5
  %t57 = load i32, ptr %t4
  %t58 = icmp slt i32 %t56, %t57
  %t59 = xor i1 %t58, true
  br i1 %t59, label %L53, label %L51
L53:
  %t63 = load i32, ptr %t1
  %t64 = icmp uge i32 %t63, %p2
  br i1 %t64, label %L60, label %L62
L60:
  %t65 = load i32, ptr %t1
  call spir_func void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p4, i32 %p5, i32 1, i32 0, i32 %t65, i32 %p2)
  ret void
L62:
  %t66 = load i32, ptr %t1
  %t67 = getelementptr float, ptr addrspace(1) %t6, i32 %t66
  %t68 = load float, ptr %t2
  %t69 = load i32, ptr %t4
  %t70 = sitofp i32 %t69 to float
  %t71 = fadd float %t68, %t70
  %t72 = load i32, ptr %t5
  %t73 = sitofp i32 %t72 to float
  %t74 = fadd float %t71, %t73
  store float %t74, ptr addrspace(1) %t67, align 4
  ret void
}

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0, i32 0, i32 1, i32 0}
!2 = !{!"none", !"none", !"none", !"none", !"none", !"none"}
!3 = !{!"float*", !"uint", !"int", !"int", !"int*", !"int"}
!4 = !{!"", !"", !"", !"", !"", !""}
