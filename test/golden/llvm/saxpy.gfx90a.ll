; gpuc: kernel "saxpy" for gfx90a
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

define amdgpu_kernel void @gpuc_saxpy(float %p0, ptr addrspace(1) %p1, i32 %p2, i32 %p3, ptr addrspace(1) %p4, i32 %p5, i32 %p6, ptr addrspace(1) %p7, i32 %p8) #0 {
entry:
  %t0 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  store float %p0, ptr addrspace(5) %t0
  %t2 = getelementptr float, ptr addrspace(1) %p1, i32 %p2
  %t3 = getelementptr float, ptr addrspace(1) %p4, i32 %p5
  %t4 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t5 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t6 = getelementptr i8, ptr addrspace(4) %t5, i64 4
  %t7 = load i16, ptr addrspace(4) %t6, align 2
  %t8 = zext i16 %t7 to i32
  %t9 = mul i32 %t4, %t8
  %t10 = call i32 @llvm.amdgcn.workitem.id.x()
  %t11 = add i32 %t9, %t10
  store i32 %t11, ptr addrspace(5) %t1
  %t15 = load i32, ptr addrspace(5) %t1
  %t16 = icmp slt i32 %t15, %p6
  br i1 %t16, label %L12, label %L14
L12:
  %t20 = load i32, ptr addrspace(5) %t1
  %t21 = icmp uge i32 %t20, %p3
  br i1 %t21, label %L17, label %L19
L17:
  %t22 = load i32, ptr addrspace(5) %t1
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 1, i32 0, i32 %t22, i32 %p3)
  ret void
L19:
  %t26 = load i32, ptr addrspace(5) %t1
  %t27 = icmp uge i32 %t26, %p6
  br i1 %t27, label %L23, label %L25
L23:
  %t28 = load i32, ptr addrspace(5) %t1
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 1, i32 %t28, i32 %p6)
  ret void
L25:
  %t29 = load i32, ptr addrspace(5) %t1
  %t30 = getelementptr float, ptr addrspace(1) %t3, i32 %t29
  %t31 = load float, ptr addrspace(5) %t0
  %t32 = load i32, ptr addrspace(5) %t1
  %t33 = getelementptr float, ptr addrspace(1) %t2, i32 %t32
  %t34 = load float, ptr addrspace(1) %t33, align 4
  %t35 = fmul float %t31, %t34
  %t36 = load i32, ptr addrspace(5) %t1
  %t37 = getelementptr float, ptr addrspace(1) %t3, i32 %t36
  %t38 = load float, ptr addrspace(1) %t37, align 4
  %t39 = fadd float %t35, %t38
  store float %t39, ptr addrspace(1) %t30, align 4
  br label %L14
L14:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
