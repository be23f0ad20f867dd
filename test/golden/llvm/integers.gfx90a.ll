; gpuc: kernel "integers" for gfx90a
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()

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

define amdgpu_kernel void @gpuc_integers(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7, i32 %p8, ptr addrspace(1) %p9, i32 %p10) #0 {
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
  %t6 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t6
  %t7 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t7
  %t8 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t8
  %t9 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t9
  %t10 = getelementptr i32, ptr addrspace(1) %p0, i32 %p1
  %t11 = getelementptr i32, ptr addrspace(1) %p3, i32 %p4
  %t12 = getelementptr i32, ptr addrspace(1) %p6, i32 %p7
  %t13 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t13, ptr addrspace(5) %t0
  %t17 = load i32, ptr addrspace(5) %t0
  %t18 = icmp uge i32 %t17, %p5
  br i1 %t18, label %L14, label %L16
L14:
  %t19 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 1, i32 0, i32 %t19, i32 %p5)
  ret void
L16:
  %t23 = load i32, ptr addrspace(5) %t0
  %t24 = icmp uge i32 %t23, %p8
  br i1 %t24, label %L20, label %L22
L20:
  %t25 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 2, i32 1, i32 %t25, i32 %p8)
  ret void
L22:
  %t26 = load i32, ptr addrspace(5) %t0
  %t27 = getelementptr i32, ptr addrspace(1) %t11, i32 %t26
  %t28 = load i32, ptr addrspace(1) %t27, align 4
  store i32 %t28, ptr addrspace(5) %t6
  %t29 = load i32, ptr addrspace(5) %t0
  %t30 = getelementptr i32, ptr addrspace(1) %t12, i32 %t29
  %t31 = load i32, ptr addrspace(1) %t30, align 4
  store i32 %t31, ptr addrspace(5) %t7
  %t32 = load i32, ptr addrspace(5) %t7
  %t33 = icmp eq i32 %t32, 0
  %t34 = load i32, ptr addrspace(5) %t7
  %t35 = icmp eq i32 %t34, -1
  %t36 = load i32, ptr addrspace(5) %t6
  %t37 = sub i32 0, %t36
  %t38 = load i32, ptr addrspace(5) %t6
  %t39 = load i32, ptr addrspace(5) %t7
  %t40 = icmp eq i32 %t39, 0
  %t41 = load i32, ptr addrspace(5) %t7
  %t42 = icmp eq i32 %t41, -1
  %t43 = or i1 %t40, %t42
  %t44 = load i32, ptr addrspace(5) %t7
  %t45 = select i1 %t43, i32 1, i32 %t44
  %t46 = sdiv i32 %t38, %t45
  %t47 = select i1 %t35, i32 %t37, i32 %t46
  %t48 = select i1 %t33, i32 0, i32 %t47
  store i32 %t48, ptr addrspace(5) %t1
  %t49 = load i32, ptr addrspace(5) %t0
  %t50 = getelementptr i32, ptr addrspace(1) %t11, i32 %t49
  %t51 = load i32, ptr addrspace(1) %t50, align 4
  store i32 %t51, ptr addrspace(5) %t8
  %t52 = load i32, ptr addrspace(5) %t0
  %t53 = getelementptr i32, ptr addrspace(1) %t12, i32 %t52
  %t54 = load i32, ptr addrspace(1) %t53, align 4
  store i32 %t54, ptr addrspace(5) %t9
  %t55 = load i32, ptr addrspace(5) %t9
  %t56 = icmp eq i32 %t55, 0
  %t57 = load i32, ptr addrspace(5) %t9
  %t58 = icmp eq i32 %t57, -1
  %t59 = load i32, ptr addrspace(5) %t8
  %t60 = load i32, ptr addrspace(5) %t9
  %t61 = icmp eq i32 %t60, 0
  %t62 = load i32, ptr addrspace(5) %t9
  %t63 = icmp eq i32 %t62, -1
  %t64 = or i1 %t61, %t63
  %t65 = load i32, ptr addrspace(5) %t9
  %t66 = select i1 %t64, i32 1, i32 %t65
  %t67 = srem i32 %t59, %t66
  %t68 = select i1 %t58, i32 0, i32 %t67
  %t69 = select i1 %t56, i32 0, i32 %t68
  store i32 %t69, ptr addrspace(5) %t2
  %t70 = load i32, ptr addrspace(5) %t0
  %t71 = getelementptr i32, ptr addrspace(1) %t11, i32 %t70
  %t72 = load i32, ptr addrspace(1) %t71, align 4
  %t73 = load i32, ptr addrspace(5) %t0
  %t74 = getelementptr i32, ptr addrspace(1) %t12, i32 %t73
  %t75 = load i32, ptr addrspace(1) %t74, align 4
  %t76 = and i32 %t75, 7
  %t77 = and i32 %t76, 31
  %t78 = lshr i32 %t72, %t77
  store i32 %t78, ptr addrspace(5) %t3
  %t79 = load i32, ptr addrspace(5) %t0
  %t80 = getelementptr i32, ptr addrspace(1) %t11, i32 %t79
  %t81 = load i32, ptr addrspace(1) %t80, align 4
  %t82 = mul i32 %t81, -1640531535
  store i32 %t82, ptr addrspace(5) %t4
  %t83 = load i32, ptr addrspace(5) %t0
  %t84 = getelementptr i32, ptr addrspace(1) %t11, i32 %t83
  %t85 = load i32, ptr addrspace(1) %t84, align 4
  store i32 %t85, ptr addrspace(5) %t5
  %t89 = load i32, ptr addrspace(5) %t0
  %t90 = icmp uge i32 %t89, %p2
  br i1 %t90, label %L86, label %L88
L86:
  %t91 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 3, i32 2, i32 %t91, i32 %p2)
  ret void
L88:
  %t92 = load i32, ptr addrspace(5) %t0
  %t93 = getelementptr i32, ptr addrspace(1) %t10, i32 %t92
  %t94 = load i32, ptr addrspace(5) %t1
  %t95 = load i32, ptr addrspace(5) %t2
  %t96 = add i32 %t94, %t95
  %t97 = load i32, ptr addrspace(5) %t3
  %t98 = icmp ugt i32 %t97, -296
  %t99 = select i1 %t98, i32 1, i32 0
  %t100 = add i32 %t96, %t99
  %t101 = load i32, ptr addrspace(5) %t4
  %t102 = load i32, ptr addrspace(5) %t4
  %t103 = ashr i32 %t102, 15
  %t104 = xor i32 %t101, %t103
  %t105 = add i32 %t100, %t104
  %t106 = load i32, ptr addrspace(5) %t5
  %t107 = icmp slt i32 %t106, 0
  %t108 = load i32, ptr addrspace(5) %t5
  %t109 = load i32, ptr addrspace(5) %t3
  %t110 = icmp ult i32 %t108, %t109
  %t111 = select i1 %t107, i1 true, i1 %t110
  %t112 = select i1 %t111, i32 2, i32 0
  %t113 = add i32 %t105, %t112
  store i32 %t113, ptr addrspace(1) %t93, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
