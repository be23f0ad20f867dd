; gpuc: kernel "subgroups" for gfx90a
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

define amdgpu_kernel void @gpuc_subgroups(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) #0 {
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
  %t8 = getelementptr i32, ptr addrspace(1) %p0, i32 %p1
  %t9 = getelementptr i32, ptr addrspace(1) %p3, i32 %p4
  %t10 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t11 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t12 = getelementptr i8, ptr addrspace(4) %t11, i64 4
  %t13 = load i16, ptr addrspace(4) %t12, align 2
  %t14 = zext i16 %t13 to i32
  %t15 = mul i32 %t10, %t14
  %t16 = call i32 @llvm.amdgcn.workitem.id.x()
  %t17 = add i32 %t15, %t16
  store i32 %t17, ptr addrspace(5) %t0
  %t21 = load i32, ptr addrspace(5) %t0
  %t22 = icmp uge i32 %t21, %p5
  br i1 %t22, label %L18, label %L20
L18:
  %t23 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 0, i32 %t23, i32 %p5)
  ret void
L20:
  %t24 = load i32, ptr addrspace(5) %t0
  %t25 = getelementptr i32, ptr addrspace(1) %t9, i32 %t24
  %t26 = load i32, ptr addrspace(1) %t25, align 4
  store i32 %t26, ptr addrspace(5) %t1
  %t27 = load i32, ptr addrspace(5) %t1
  store i32 %t27, ptr addrspace(5) %t2
  %t28 = load i32, ptr addrspace(5) %t2
  store i32 %t28, ptr addrspace(5) %t3
  %t29 = load i32, ptr addrspace(5) %t1
  store i32 %t29, ptr addrspace(5) %t4
  %t30 = load i32, ptr addrspace(5) %t4
  store i32 %t30, ptr addrspace(5) %t5
  %t31 = load i32, ptr addrspace(5) %t1
  %t32 = icmp sgt i32 %t31, 0
  %t33 = select i1 %t32, i32 1, i32 0
  store i32 %t33, ptr addrspace(5) %t6
  %t34 = load i32, ptr addrspace(5) %t6
  store i32 %t34, ptr addrspace(5) %t7
  %t38 = load i32, ptr addrspace(5) %t0
  %t39 = icmp uge i32 %t38, %p2
  br i1 %t39, label %L35, label %L37
L35:
  %t40 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 2, i32 1, i32 %t40, i32 %p2)
  ret void
L37:
  %t41 = load i32, ptr addrspace(5) %t0
  %t42 = getelementptr i32, ptr addrspace(1) %t8, i32 %t41
  %t43 = load i32, ptr addrspace(5) %t3
  %t44 = load i32, ptr addrspace(5) %t5
  %t45 = add i32 %t43, %t44
  %t46 = load i32, ptr addrspace(5) %t7
  %t47 = and i32 %t46, 255
  %t48 = add i32 %t45, %t47
  %t49 = add i32 %t48, 0
  store i32 %t49, ptr addrspace(1) %t42, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
