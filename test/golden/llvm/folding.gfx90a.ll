; gpuc: kernel "folding" for gfx90a
target triple = "amdgcn-amd-amdhsa"

declare float @llvm.sin.f32(float)
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

define amdgpu_kernel void @gpuc_folding(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4) #0 {
entry:
  %t0 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t4 = call i32 @llvm.amdgcn.workitem.id.x()
  %t5 = icmp uge i32 %t4, %p2
  br i1 %t5, label %L1, label %L3
L1:
  %t6 = call i32 @llvm.amdgcn.workitem.id.x()
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p3, i32 %p4, i32 1, i32 0, i32 %t6, i32 %p2)
  ret void
L3:
  %t7 = call i32 @llvm.amdgcn.workitem.id.x()
  %t8 = getelementptr float, ptr addrspace(1) %t0, i32 %t7
  %t9 = call i32 @llvm.amdgcn.workitem.id.x()
  %t10 = sitofp i32 %t9 to float
  %t11 = fmul float 0x3FE921FB60000000, %t10
  %t12 = call float @llvm.sin.f32(float %t11)
  %t13 = fadd float %t12, 0x4031000000000000
  store float %t13, ptr addrspace(1) %t8, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
