; gpuc: kernel "switchAndShortCircuit" for gfx90a
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

define amdgpu_kernel void @gpuc_switchAndShortCircuit(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) #0 {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = alloca i8, align 4, addrspace(5)
  store i8 0, ptr addrspace(5) %t2
  %t3 = getelementptr i32, ptr addrspace(1) %p0, i32 %p1
  %t4 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t5 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t5, ptr addrspace(5) %t0
  store i32 0, ptr addrspace(5) %t1
  %t6 = load i32, ptr addrspace(5) %t0
  %t7 = and i32 %t6, 3
  switch i32 %t7, label %L11 [i32 0, label %L9 i32 1, label %L10 i32 2, label %L10]
L9:
  store i32 1, ptr addrspace(5) %t1
  br label %L8
L10:
  store i32 2, ptr addrspace(5) %t1
  br label %L11
L11:
  %t12 = load i32, ptr addrspace(5) %t1
  %t13 = add i32 %t12, 10
  store i32 %t13, ptr addrspace(5) %t1
  br label %L8
L8:
  %t14 = load i32, ptr addrspace(5) %t0
  %t15 = icmp slt i32 %t14, %p5
  %t16 = zext i1 %t15 to i8
  store i8 %t16, ptr addrspace(5) %t2
  %t20 = load i8, ptr addrspace(5) %t2
  %t21 = trunc i8 %t20 to i1
  br i1 %t21, label %L17, label %L19
L17:
  %t25 = load i32, ptr addrspace(5) %t0
  %t26 = icmp uge i32 %t25, %p5
  br i1 %t26, label %L22, label %L24
L22:
  %t27 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 0, i32 %t27, i32 %p5)
  ret void
L24:
  %t28 = load i32, ptr addrspace(5) %t0
  %t29 = getelementptr float, ptr addrspace(1) %t4, i32 %t28
  %t30 = load float, ptr addrspace(1) %t29, align 4
  %t31 = fcmp ogt float %t30, 0x0000000000000000
  %t32 = zext i1 %t31 to i8
  store i8 %t32, ptr addrspace(5) %t2
  br label %L19
L19:
  %t36 = load i8, ptr addrspace(5) %t2
  %t37 = trunc i8 %t36 to i1
  br i1 %t37, label %L33, label %L35
L33:
  %t38 = load i32, ptr addrspace(5) %t1
  %t39 = add i32 %t38, 100
  store i32 %t39, ptr addrspace(5) %t1
  br label %L35
L35:
  %t43 = load i32, ptr addrspace(5) %t0
  %t44 = icmp uge i32 %t43, %p2
  br i1 %t44, label %L40, label %L42
L40:
  %t45 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 2, i32 1, i32 %t45, i32 %p2)
  ret void
L42:
  %t46 = load i32, ptr addrspace(5) %t0
  %t47 = getelementptr i32, ptr addrspace(1) %t3, i32 %t46
  %t48 = load i32, ptr addrspace(5) %t1
  store i32 %t48, ptr addrspace(1) %t47, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
