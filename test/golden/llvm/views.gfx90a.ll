; gpuc: kernel "views" for gfx90a
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

define internal void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p0, i32 %p1, i32 %p2, i32 %p3, i32 %p4, i32 %p5) {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t2
  %t3 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t3
  %t4 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t4
  store i32 %p2, ptr addrspace(5) %t0
  store i32 %p3, ptr addrspace(5) %t1
  store i32 %p4, ptr addrspace(5) %t2
  store i32 %p5, ptr addrspace(5) %t3
  %t5 = getelementptr i32, ptr addrspace(1) %p0, i32 5
  %t6 = atomicrmw add ptr addrspace(1) %t5, i32 1 syncscope("agent") seq_cst, align 4
  store i32 %t6, ptr addrspace(5) %t4
  %t10 = load i32, ptr addrspace(5) %t4
  %t11 = icmp eq i32 %t10, 0
  br i1 %t11, label %L7, label %L9
L7:
  %t12 = getelementptr i32, ptr addrspace(1) %p0, i32 0
  %t13 = load i32, ptr addrspace(5) %t0
  store i32 %t13, ptr addrspace(1) %t12, align 4
  %t14 = getelementptr i32, ptr addrspace(1) %p0, i32 1
  %t15 = load i32, ptr addrspace(5) %t1
  store i32 %t15, ptr addrspace(1) %t14, align 4
  %t16 = getelementptr i32, ptr addrspace(1) %p0, i32 2
  %t17 = load i32, ptr addrspace(5) %t2
  store i32 %t17, ptr addrspace(1) %t16, align 4
  %t18 = getelementptr i32, ptr addrspace(1) %p0, i32 3
  %t19 = load i32, ptr addrspace(5) %t3
  store i32 %t19, ptr addrspace(1) %t18, align 4
  %t20 = getelementptr i32, ptr addrspace(1) %p0, i32 4
  %t21 = call i32 @llvm.amdgcn.workitem.id.x()
  %t22 = call i32 @llvm.amdgcn.workitem.id.y()
  %t23 = shl i32 %t22, 10
  %t24 = or i32 %t21, %t23
  %t25 = call i32 @llvm.amdgcn.workitem.id.z()
  %t26 = shl i32 %t25, 20
  %t27 = or i32 %t24, %t26
  store i32 %t27, ptr addrspace(1) %t20, align 4
  %t28 = getelementptr i32, ptr addrspace(1) %p0, i32 7
  %t29 = call i32 @llvm.amdgcn.workgroup.id.x()
  store i32 %t29, ptr addrspace(1) %t28, align 4
  %t30 = getelementptr i32, ptr addrspace(1) %p0, i32 8
  %t31 = call i32 @llvm.amdgcn.workgroup.id.y()
  store i32 %t31, ptr addrspace(1) %t30, align 4
  %t32 = getelementptr i32, ptr addrspace(1) %p0, i32 9
  %t33 = call i32 @llvm.amdgcn.workgroup.id.z()
  store i32 %t33, ptr addrspace(1) %t32, align 4
  br label %L9
L9:
  ret void
}

define amdgpu_kernel void @gpuc_views(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) #0 {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t2
  %t3 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t3
  %t4 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t4
  %t5 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t5
  %t6 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t6
  %t7 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t7
  %t8 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t8
  %t9 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t9
  %t10 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t10
  %t11 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t11
  %t12 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t12
  %t13 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t13
  %t14 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t14
  %t15 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t16 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t17 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t17, ptr addrspace(5) %t0
  store i32 %p5, ptr addrspace(5) %t1
  %t18 = load i32, ptr addrspace(5) %t0
  %t19 = icmp slt i32 %t18, 0
  %t20 = load i32, ptr addrspace(5) %t1
  %t21 = load i32, ptr addrspace(5) %t0
  %t22 = add i32 %t20, %t21
  %t23 = call i32 @llvm.smax.i32(i32 %t22, i32 0)
  %t24 = load i32, ptr addrspace(5) %t0
  %t25 = load i32, ptr addrspace(5) %t1
  %t26 = call i32 @llvm.smin.i32(i32 %t24, i32 %t25)
  %t27 = select i1 %t19, i32 %t23, i32 %t26
  store i32 %t27, ptr addrspace(5) %t2
  %t28 = load i32, ptr addrspace(5) %t0
  %t29 = add i32 %t28, 4
  store i32 %t29, ptr addrspace(5) %t3
  %t30 = load i32, ptr addrspace(5) %t3
  %t31 = icmp slt i32 %t30, 0
  %t32 = load i32, ptr addrspace(5) %t1
  %t33 = load i32, ptr addrspace(5) %t3
  %t34 = add i32 %t32, %t33
  %t35 = call i32 @llvm.smax.i32(i32 %t34, i32 0)
  %t36 = load i32, ptr addrspace(5) %t3
  %t37 = load i32, ptr addrspace(5) %t1
  %t38 = call i32 @llvm.smin.i32(i32 %t36, i32 %t37)
  %t39 = select i1 %t31, i32 %t35, i32 %t38
  %t40 = load i32, ptr addrspace(5) %t2
  %t41 = sub i32 %t39, %t40
  %t42 = call i32 @llvm.smax.i32(i32 %t41, i32 0)
  store i32 %t42, ptr addrspace(5) %t4
  %t43 = load i32, ptr addrspace(5) %t2
  store i32 %t43, ptr addrspace(5) %t5
  %t44 = load i32, ptr addrspace(5) %t5
  store i32 %t44, ptr addrspace(5) %t11
  %t45 = load i32, ptr addrspace(5) %t4
  store i32 %t45, ptr addrspace(5) %t12
  store float 0x0000000000000000, ptr addrspace(5) %t13
  store i32 0, ptr addrspace(5) %t14
  br label %L46
L46:
  %t52 = load i32, ptr addrspace(5) %t14
  %t53 = load i32, ptr addrspace(5) %t12
  %t54 = icmp slt i32 %t52, %t53
  %t55 = xor i1 %t54, true
  br i1 %t55, label %L49, label %L51
L49:
  br label %L48
L51:
  %t56 = load float, ptr addrspace(5) %t13
  %t57 = load i32, ptr addrspace(5) %t11
  %t58 = load i32, ptr addrspace(5) %t14
  %t59 = add i32 %t57, %t58
  %t60 = getelementptr float, ptr addrspace(1) %t16, i32 %t59
  %t61 = load float, ptr addrspace(1) %t60, align 4
  %t62 = fadd float %t56, %t61
  store float %t62, ptr addrspace(5) %t13
  br label %L47
L47:
  %t63 = load i32, ptr addrspace(5) %t14
  %t64 = add i32 %t63, 1
  store i32 %t64, ptr addrspace(5) %t14
  br label %L46
L48:
  %t65 = load float, ptr addrspace(5) %t13
  store float %t65, ptr addrspace(5) %t6
  store i32 %p5, ptr addrspace(5) %t7
  %t66 = load i32, ptr addrspace(5) %t7
  %t67 = add i32 %t66, -2
  %t68 = call i32 @llvm.smax.i32(i32 %t67, i32 0)
  store i32 %t68, ptr addrspace(5) %t8
  %t69 = load i32, ptr addrspace(5) %t7
  %t70 = load i32, ptr addrspace(5) %t8
  %t71 = sub i32 %t69, %t70
  %t72 = call i32 @llvm.smax.i32(i32 %t71, i32 0)
  store i32 %t72, ptr addrspace(5) %t9
  %t73 = load i32, ptr addrspace(5) %t8
  store i32 %t73, ptr addrspace(5) %t10
  %t77 = load i32, ptr addrspace(5) %t9
  %t78 = icmp uge i32 0, %t77
  br i1 %t78, label %L74, label %L76
L74:
  %t79 = load i32, ptr addrspace(5) %t9
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 0, i32 0, i32 %t79)
  ret void
L76:
  %t83 = load i32, ptr addrspace(5) %t0
  %t84 = icmp uge i32 %t83, %p2
  br i1 %t84, label %L80, label %L82
L80:
  %t85 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 3, i32 1, i32 %t85, i32 %p2)
  ret void
L82:
  %t86 = load i32, ptr addrspace(5) %t0
  %t87 = getelementptr float, ptr addrspace(1) %t15, i32 %t86
  %t88 = load float, ptr addrspace(5) %t6
  %t89 = load i32, ptr addrspace(5) %t4
  %t90 = sitofp i32 %t89 to float
  %t91 = fadd float %t88, %t90
  %t92 = load i32, ptr addrspace(5) %t10
  %t93 = getelementptr float, ptr addrspace(1) %t16, i32 %t92
  %t94 = load float, ptr addrspace(1) %t93, align 4
  %t95 = fadd float %t91, %t94
  store float %t95, ptr addrspace(1) %t87, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
