; gpuc: kernel "helpers" for gfx90a
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

define amdgpu_kernel void @gpuc_helpers(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) #0 {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t1
  %t2 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t2
  %t3 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t3
  %t4 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t4
  %t5 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t5
  %t6 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t6
  %t7 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t7
  %t8 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t8
  %t9 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t10 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t11 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t11, ptr addrspace(5) %t0
  %t15 = load i32, ptr addrspace(5) %t0
  %t16 = icmp uge i32 %t15, %p5
  br i1 %t16, label %L12, label %L14
L12:
  %t17 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 0, i32 %t17, i32 %p5)
  ret void
L14:
  %t18 = load i32, ptr addrspace(5) %t0
  %t19 = getelementptr float, ptr addrspace(1) %t10, i32 %t18
  %t20 = load float, ptr addrspace(1) %t19, align 4
  store float %t20, ptr addrspace(5) %t4
  store i32 1, ptr addrspace(5) %t5
  store float 0x3FD0000000000000, ptr addrspace(5) %t6
  %t21 = load float, ptr addrspace(5) %t4
  %t22 = load i32, ptr addrspace(5) %t5
  %t23 = sitofp i32 %t22 to float
  %t24 = load float, ptr addrspace(5) %t4
  %t25 = fsub float %t23, %t24
  %t26 = load float, ptr addrspace(5) %t6
  %t27 = fmul float %t25, %t26
  %t28 = fadd float %t21, %t27
  store float %t28, ptr addrspace(5) %t1
  %t29 = load i32, ptr addrspace(5) %t0
  %t30 = getelementptr float, ptr addrspace(1) %t10, i32 %t29
  %t31 = load float, ptr addrspace(1) %t30, align 4
  store float %t31, ptr addrspace(5) %t7
  br label %L32
L32:
  %t38 = load float, ptr addrspace(5) %t7
  %t39 = fcmp ogt float %t38, 0x0000000000000000
  br i1 %t39, label %L35, label %L37
L35:
  store i32 1, ptr addrspace(5) %t2
  br label %L34
L37:
  %t43 = load float, ptr addrspace(5) %t7
  %t44 = fcmp olt float %t43, 0x0000000000000000
  br i1 %t44, label %L40, label %L42
L40:
  store i32 -1, ptr addrspace(5) %t2
  br label %L34
L42:
  store i32 0, ptr addrspace(5) %t2
  br label %L34
L33:
  br label %L32
L34:
  %t45 = load i32, ptr addrspace(5) %t0
  %t46 = sub i32 %t45, 2
  store i32 %t46, ptr addrspace(5) %t8
  br label %L47
L47:
  %t53 = load i32, ptr addrspace(5) %t8
  %t54 = icmp sgt i32 %t53, 0
  br i1 %t54, label %L50, label %L52
L50:
  store i32 1, ptr addrspace(5) %t3
  br label %L49
L52:
  %t58 = load i32, ptr addrspace(5) %t8
  %t59 = icmp slt i32 %t58, 0
  br i1 %t59, label %L55, label %L57
L55:
  store i32 -1, ptr addrspace(5) %t3
  br label %L49
L57:
  store i32 0, ptr addrspace(5) %t3
  br label %L49
L48:
  br label %L47
L49:
  %t63 = load i32, ptr addrspace(5) %t0
  %t64 = icmp uge i32 %t63, %p2
  br i1 %t64, label %L60, label %L62
L60:
  %t65 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 2, i32 1, i32 %t65, i32 %p2)
  ret void
L62:
  %t66 = load i32, ptr addrspace(5) %t0
  %t67 = getelementptr float, ptr addrspace(1) %t9, i32 %t66
  %t68 = load float, ptr addrspace(5) %t1
  %t69 = load i32, ptr addrspace(5) %t2
  %t70 = sitofp i32 %t69 to float
  %t71 = fmul float %t68, %t70
  %t72 = load i32, ptr addrspace(5) %t3
  %t73 = sitofp i32 %t72 to float
  %t74 = fadd float %t71, %t73
  store float %t74, ptr addrspace(1) %t67, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
