; gpuc: kernel "loops" for gfx90a
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

define amdgpu_kernel void @gpuc_loops(ptr addrspace(1) %p0, i32 %p1, i32 %p2, i32 %p3, ptr addrspace(1) %p4, i32 %p5) #0 {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t2
  %t3 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t3
  %t4 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t4
  %t5 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t5
  %t6 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  store i32 %p3, ptr addrspace(5) %t0
  %t7 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t7, ptr addrspace(5) %t1
  store float 0x0000000000000000, ptr addrspace(5) %t2
  store i32 0, ptr addrspace(5) %t3
  br label %L8
L8:
  %t14 = load i32, ptr addrspace(5) %t3
  %t15 = load i32, ptr addrspace(5) %t0
  %t16 = icmp slt i32 %t14, %t15
  %t17 = xor i1 %t16, true
  br i1 %t17, label %L11, label %L13
L11:
  br label %L10
L13:
  %t21 = load i32, ptr addrspace(5) %t3
  %t22 = srem i32 %t21, 3
  %t23 = icmp eq i32 %t22, 0
  br i1 %t23, label %L18, label %L20
L18:
  br label %L9
L20:
  %t27 = load i32, ptr addrspace(5) %t3
  %t28 = icmp sgt i32 %t27, 20
  br i1 %t28, label %L24, label %L26
L24:
  br label %L10
L26:
  %t29 = load float, ptr addrspace(5) %t2
  %t30 = load i32, ptr addrspace(5) %t3
  %t31 = sitofp i32 %t30 to float
  %t32 = fmul float %t31, 0x3FE0000000000000
  %t33 = fadd float %t29, %t32
  store float %t33, ptr addrspace(5) %t2
  br label %L9
L9:
  %t34 = load i32, ptr addrspace(5) %t3
  %t35 = add i32 %t34, 1
  store i32 %t35, ptr addrspace(5) %t3
  br label %L8
L10:
  store i32 0, ptr addrspace(5) %t4
  br label %L36
L36:
  %t42 = load i32, ptr addrspace(5) %t4
  %t43 = load i32, ptr addrspace(5) %t4
  %t44 = mul i32 %t42, %t43
  %t45 = load i32, ptr addrspace(5) %t1
  %t46 = icmp slt i32 %t44, %t45
  %t47 = xor i1 %t46, true
  br i1 %t47, label %L39, label %L41
L39:
  br label %L38
L41:
  %t48 = load i32, ptr addrspace(5) %t4
  %t49 = add i32 %t48, 1
  store i32 %t49, ptr addrspace(5) %t4
  br label %L37
L37:
  br label %L36
L38:
  store i32 0, ptr addrspace(5) %t5
  br label %L50
L50:
  %t53 = load i32, ptr addrspace(5) %t5
  %t54 = add i32 %t53, 2
  store i32 %t54, ptr addrspace(5) %t5
  br label %L51
L51:
  %t55 = load i32, ptr addrspace(5) %t5
  %t56 = load i32, ptr addrspace(5) %t4
  %t57 = icmp slt i32 %t55, %t56
  %t58 = xor i1 %t57, true
  br i1 %t58, label %L52, label %L50
L52:
  %t62 = load i32, ptr addrspace(5) %t1
  %t63 = icmp uge i32 %t62, %p2
  br i1 %t63, label %L59, label %L61
L59:
  %t64 = load i32, ptr addrspace(5) %t1
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p4, i32 %p5, i32 1, i32 0, i32 %t64, i32 %p2)
  ret void
L61:
  %t65 = load i32, ptr addrspace(5) %t1
  %t66 = getelementptr float, ptr addrspace(1) %t6, i32 %t65
  %t67 = load float, ptr addrspace(5) %t2
  %t68 = load i32, ptr addrspace(5) %t4
  %t69 = sitofp i32 %t68 to float
  %t70 = fadd float %t67, %t69
  %t71 = load i32, ptr addrspace(5) %t5
  %t72 = sitofp i32 %t71 to float
  %t73 = fadd float %t70, %t72
  store float %t73, ptr addrspace(1) %t66, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
