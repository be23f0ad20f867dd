; gpuc: kernel "raises" for gfx90a
target triple = "amdgcn-amd-amdhsa"

declare double @llvm.amdgcn.rsq.f64(double)
declare double @llvm.fma.f64(double, double, double)
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()

define internal double @gpuc_sqrt_f64(double %x) {
entry:
  %small = fcmp olt double %x, 0x1000000000000000
  %up = fmul double %x, 0x4FF0000000000000
  %xs = select i1 %small, double %up, double %x
  %r0 = call double @llvm.amdgcn.rsq.f64(double %xs)
  %y0 = fmul double %xs, %r0
  %h0 = fmul double %r0, 0.5
  %nh0 = fneg double %h0
  %e0 = call double @llvm.fma.f64(double %nh0, double %y0, double 0.5)
  %h1 = call double @llvm.fma.f64(double %h0, double %e0, double %h0)
  %y1 = call double @llvm.fma.f64(double %y0, double %e0, double %y0)
  %ny1 = fneg double %y1
  %d0 = call double @llvm.fma.f64(double %ny1, double %y1, double %xs)
  %y2 = call double @llvm.fma.f64(double %d0, double %h1, double %y1)
  %ny2 = fneg double %y2
  %d1 = call double @llvm.fma.f64(double %ny2, double %y2, double %xs)
  %y3 = call double @llvm.fma.f64(double %d1, double %h1, double %y2)
  %down = fmul double %y3, 0x37F0000000000000
  %y = select i1 %small, double %down, double %y3
  %zero = fcmp oeq double %xs, 0.0
  %inf = fcmp oeq double %xs, 0x7FF0000000000000
  %own = or i1 %zero, %inf
  %res = select i1 %own, double %xs, double %y
  ret double %res
}

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

define internal i32 @gpuc_rt1_gpuc_print_reserve(ptr addrspace(1) %p0, i32 %p1, i32 %p2, i32 %p3) {
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
  store i32 %p2, ptr addrspace(5) %t0
  store i32 %p3, ptr addrspace(5) %t1
  %t6 = load i32, ptr addrspace(5) %t1
  %t7 = add i32 %t6, 7
  store i32 %t7, ptr addrspace(5) %t2
  %t8 = getelementptr i32, ptr addrspace(1) %p0, i32 27
  %t9 = load i32, ptr addrspace(5) %t2
  %t10 = atomicrmw add ptr addrspace(1) %t8, i32 %t9 syncscope("agent") seq_cst, align 4
  store i32 %t10, ptr addrspace(5) %t3
  %t11 = load i32, ptr addrspace(5) %t3
  %t12 = add i32 32, %t11
  store i32 %t12, ptr addrspace(5) %t4
  %t16 = load i32, ptr addrspace(5) %t4
  %t17 = load i32, ptr addrspace(5) %t2
  %t18 = add i32 %t16, %t17
  %t19 = icmp sgt i32 %t18, %p1
  br i1 %t19, label %L13, label %L15
L13:
  %t20 = getelementptr i32, ptr addrspace(1) %p0, i32 28
  %t21 = atomicrmw add ptr addrspace(1) %t20, i32 1 syncscope("agent") seq_cst, align 4
  store i32 %t21, ptr addrspace(5) %t5
  ret i32 -1
L15:
  %t22 = load i32, ptr addrspace(5) %t4
  %t23 = getelementptr i32, ptr addrspace(1) %p0, i32 %t22
  %t24 = load i32, ptr addrspace(5) %t0
  store i32 %t24, ptr addrspace(1) %t23, align 4
  %t25 = load i32, ptr addrspace(5) %t4
  %t26 = add i32 %t25, 1
  %t27 = getelementptr i32, ptr addrspace(1) %p0, i32 %t26
  %t28 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t28, ptr addrspace(1) %t27, align 4
  %t29 = load i32, ptr addrspace(5) %t4
  %t30 = add i32 %t29, 2
  %t31 = getelementptr i32, ptr addrspace(1) %p0, i32 %t30
  %t32 = call i32 @llvm.amdgcn.workitem.id.y()
  store i32 %t32, ptr addrspace(1) %t31, align 4
  %t33 = load i32, ptr addrspace(5) %t4
  %t34 = add i32 %t33, 3
  %t35 = getelementptr i32, ptr addrspace(1) %p0, i32 %t34
  %t36 = call i32 @llvm.amdgcn.workitem.id.z()
  store i32 %t36, ptr addrspace(1) %t35, align 4
  %t37 = load i32, ptr addrspace(5) %t4
  %t38 = add i32 %t37, 4
  %t39 = getelementptr i32, ptr addrspace(1) %p0, i32 %t38
  %t40 = call i32 @llvm.amdgcn.workgroup.id.x()
  store i32 %t40, ptr addrspace(1) %t39, align 4
  %t41 = load i32, ptr addrspace(5) %t4
  %t42 = add i32 %t41, 5
  %t43 = getelementptr i32, ptr addrspace(1) %p0, i32 %t42
  %t44 = call i32 @llvm.amdgcn.workgroup.id.y()
  store i32 %t44, ptr addrspace(1) %t43, align 4
  %t45 = load i32, ptr addrspace(5) %t4
  %t46 = add i32 %t45, 6
  %t47 = getelementptr i32, ptr addrspace(1) %p0, i32 %t46
  %t48 = call i32 @llvm.amdgcn.workgroup.id.z()
  store i32 %t48, ptr addrspace(1) %t47, align 4
  %t49 = load i32, ptr addrspace(5) %t4
  %t50 = add i32 %t49, 7
  ret i32 %t50
}

define amdgpu_kernel void @gpuc_raises(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, ptr addrspace(1) %p6, i32 %p7) #0 {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t3 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  %t4 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t4, ptr addrspace(5) %t0
  %t8 = load i32, ptr addrspace(5) %t0
  %t9 = icmp uge i32 %t8, %p5
  br i1 %t9, label %L5, label %L7
L5:
  %t10 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 2, i32 0, i32 %t10, i32 %p5)
  ret void
L7:
  %t14 = load i32, ptr addrspace(5) %t0
  %t15 = getelementptr float, ptr addrspace(1) %t3, i32 %t14
  %t16 = load float, ptr addrspace(1) %t15, align 4
  %t17 = fcmp olt float %t16, 0x0000000000000000
  br i1 %t17, label %L11, label %L13
L11:
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 1, i32 1, i32 0, i32 0)
  ret void
L13:
  %t21 = load i32, ptr addrspace(5) %t0
  %t22 = getelementptr float, ptr addrspace(1) %t3, i32 %t21
  %t23 = load float, ptr addrspace(1) %t22, align 4
  %t24 = fcmp ogt float %t23, 0x4059000000000000
  br i1 %t24, label %L18, label %L20
L18:
  %t25 = call i32 @gpuc_rt1_gpuc_print_reserve(ptr addrspace(1) %p6, i32 %p7, i32 0, i32 2)
  store i32 %t25, ptr addrspace(5) %t1
  %t29 = load i32, ptr addrspace(5) %t1
  %t30 = icmp sge i32 %t29, 0
  br i1 %t30, label %L26, label %L28
L26:
  %t31 = load i32, ptr addrspace(5) %t1
  %t32 = getelementptr i32, ptr addrspace(1) %p6, i32 %t31
  %t33 = load i32, ptr addrspace(5) %t0
  %t34 = getelementptr float, ptr addrspace(1) %t3, i32 %t33
  %t35 = load float, ptr addrspace(1) %t34, align 4
  %t36 = bitcast float %t35 to i32
  store i32 %t36, ptr addrspace(1) %t32, align 4
  %t37 = load i32, ptr addrspace(5) %t1
  %t38 = add i32 %t37, 1
  %t39 = getelementptr i32, ptr addrspace(1) %p6, i32 %t38
  %t40 = load i32, ptr addrspace(5) %t0
  store i32 %t40, ptr addrspace(1) %t39, align 4
  br label %L28
L28:
  br label %L20
L20:
  %t44 = load i32, ptr addrspace(5) %t0
  %t45 = icmp uge i32 %t44, %p2
  br i1 %t45, label %L41, label %L43
L41:
  %t46 = load i32, ptr addrspace(5) %t0
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p6, i32 %p7, i32 3, i32 2, i32 %t46, i32 %p2)
  ret void
L43:
  %t47 = load i32, ptr addrspace(5) %t0
  %t48 = getelementptr float, ptr addrspace(1) %t2, i32 %t47
  %t49 = load i32, ptr addrspace(5) %t0
  %t50 = getelementptr float, ptr addrspace(1) %t3, i32 %t49
  %t51 = load float, ptr addrspace(1) %t50, align 4
  %t52 = fpext float %t51 to double
  %t53 = call double @gpuc_sqrt_f64(double %t52)
  %t54 = fptrunc double %t53 to float
  store float %t54, ptr addrspace(1) %t48, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
