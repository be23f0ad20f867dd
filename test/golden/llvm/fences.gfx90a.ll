; gpuc: kernel "fences" for gfx90a
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()

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

define amdgpu_kernel void @gpuc_fences(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7, i32 %p8, ptr addrspace(1) %p9, i32 %p10) #0 {
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
  %t10 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t10
  %t11 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t11
  %t12 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t13 = getelementptr i32, ptr addrspace(1) %p3, i32 %p4
  %t14 = getelementptr float, ptr addrspace(1) %p6, i32 %p7
  %t15 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t16 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t17 = getelementptr i8, ptr addrspace(4) %t16, i64 4
  %t18 = load i16, ptr addrspace(4) %t17, align 2
  %t19 = zext i16 %t18 to i32
  %t20 = mul i32 %t15, %t19
  %t21 = call i32 @llvm.amdgcn.workitem.id.x()
  %t22 = add i32 %t20, %t21
  store i32 %t22, ptr addrspace(5) %t0
  %t26 = load i32, ptr addrspace(5) %t0
  %t27 = icmp uge i32 %t26, %p8
  br i1 %t27, label %L23, label %L25
L23:
  %t28 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 2, i32 0, i32 %t28, i32 %p8)
  ret void
L25:
  %t32 = load i32, ptr addrspace(5) %t0
  %t33 = icmp uge i32 %t32, %p2
  br i1 %t33, label %L29, label %L31
L29:
  %t34 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 3, i32 1, i32 %t34, i32 %p2)
  ret void
L31:
  %t35 = load i32, ptr addrspace(5) %t0
  %t36 = getelementptr float, ptr addrspace(1) %t12, i32 %t35
  %t37 = load i32, ptr addrspace(5) %t0
  %t38 = getelementptr float, ptr addrspace(1) %t14, i32 %t37
  %t39 = load float, ptr addrspace(1) %t38, align 4
  %t40 = fmul float %t39, 0x4000000000000000
  store float %t40, ptr addrspace(1) %t36, align 4
  fence syncscope("workgroup") seq_cst
  fence syncscope("agent") seq_cst
  %t44 = call i32 @llvm.amdgcn.workitem.id.x()
  %t45 = icmp eq i32 %t44, 0
  br i1 %t45, label %L41, label %L43
L41:
  %t49 = icmp uge i32 0, %p5
  br i1 %t49, label %L46, label %L48
L46:
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 1, i32 2, i32 0, i32 %p5)
  ret void
L48:
  %t50 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t51 = getelementptr i8, ptr addrspace(4) %t50, i64 4
  %t52 = load i16, ptr addrspace(4) %t51, align 2
  %t53 = zext i16 %t52 to i32
  %t54 = getelementptr i8, ptr addrspace(4) %t50, i64 12
  %t55 = load i32, ptr addrspace(4) %t54, align 4
  %t56 = udiv i32 %t55, %t53
  store i32 %t56, ptr addrspace(5) %t4
  %t57 = getelementptr i32, ptr addrspace(1) %t13, i32 0
  %t58 = load atomic i32, ptr addrspace(1) %t57 syncscope("agent") seq_cst, align 4
  store i32 %t58, ptr addrspace(5) %t5
  br label %L59
L59:
  %t62 = load i32, ptr addrspace(5) %t5
  store i32 %t62, ptr addrspace(5) %t6
  %t63 = load i32, ptr addrspace(5) %t6
  store i32 %t63, ptr addrspace(5) %t7
  %t64 = getelementptr i32, ptr addrspace(1) %t13, i32 0
  %t65 = load i32, ptr addrspace(5) %t6
  %t66 = load i32, ptr addrspace(5) %t7
  %t67 = load i32, ptr addrspace(5) %t4
  %t68 = icmp uge i32 %t66, %t67
  %t69 = load i32, ptr addrspace(5) %t7
  %t70 = add i32 %t69, 1
  %t71 = select i1 %t68, i32 0, i32 %t70
  %t72 = cmpxchg ptr addrspace(1) %t64, i32 %t65, i32 %t71 syncscope("agent") seq_cst seq_cst, align 4
  %t73 = extractvalue { i32, i1 } %t72, 0
  store i32 %t73, ptr addrspace(5) %t5
  br label %L60
L60:
  %t74 = load i32, ptr addrspace(5) %t5
  %t75 = load i32, ptr addrspace(5) %t6
  %t76 = icmp eq i32 %t74, %t75
  br i1 %t76, label %L61, label %L59
L61:
  %t77 = load i32, ptr addrspace(5) %t7
  store i32 %t77, ptr addrspace(5) %t1
  %t78 = load i32, ptr addrspace(5) %t1
  store i32 %t78, ptr addrspace(5) %t2
  %t82 = icmp uge i32 1, %p5
  br i1 %t82, label %L79, label %L81
L79:
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p9, i32 %p10, i32 1, i32 3, i32 1, i32 %p5)
  ret void
L81:
  %t83 = load i32, ptr addrspace(5) %t2
  store i32 %t83, ptr addrspace(5) %t8
  %t84 = getelementptr i32, ptr addrspace(1) %t13, i32 1
  %t85 = load atomic i32, ptr addrspace(1) %t84 syncscope("agent") seq_cst, align 4
  store i32 %t85, ptr addrspace(5) %t9
  br label %L86
L86:
  %t89 = load i32, ptr addrspace(5) %t9
  store i32 %t89, ptr addrspace(5) %t10
  %t90 = load i32, ptr addrspace(5) %t10
  store i32 %t90, ptr addrspace(5) %t11
  %t91 = getelementptr i32, ptr addrspace(1) %t13, i32 1
  %t92 = load i32, ptr addrspace(5) %t10
  %t93 = load i32, ptr addrspace(5) %t11
  %t94 = icmp eq i32 %t93, 0
  %t95 = load i32, ptr addrspace(5) %t11
  %t96 = load i32, ptr addrspace(5) %t8
  %t97 = icmp ugt i32 %t95, %t96
  %t98 = or i1 %t94, %t97
  %t99 = load i32, ptr addrspace(5) %t8
  %t100 = load i32, ptr addrspace(5) %t11
  %t101 = sub i32 %t100, 1
  %t102 = select i1 %t98, i32 %t99, i32 %t101
  %t103 = cmpxchg ptr addrspace(1) %t91, i32 %t92, i32 %t102 syncscope("agent") seq_cst seq_cst, align 4
  %t104 = extractvalue { i32, i1 } %t103, 0
  store i32 %t104, ptr addrspace(5) %t9
  br label %L87
L87:
  %t105 = load i32, ptr addrspace(5) %t9
  %t106 = load i32, ptr addrspace(5) %t10
  %t107 = icmp eq i32 %t105, %t106
  br i1 %t107, label %L88, label %L86
L88:
  %t108 = load i32, ptr addrspace(5) %t11
  store i32 %t108, ptr addrspace(5) %t3
  br label %L43
L43:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
