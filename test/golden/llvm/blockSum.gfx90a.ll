; gpuc: kernel "blockSum" for gfx90a
target triple = "amdgcn-amd-amdhsa"

@gpuc_blockSum.shared0_s = internal addrspace(3) global [64 x float] undef, align 4

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
declare void @llvm.amdgcn.s.barrier()

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

define amdgpu_kernel void @gpuc_blockSum(ptr addrspace(1) %p0, i32 %p1, i32 %p2, ptr addrspace(1) %p3, i32 %p4, i32 %p5, i32 %p6, ptr addrspace(1) %p7, i32 %p8) #0 {
entry:
  %t0 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t0
  %t1 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t1
  %t2 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t2
  %t3 = alloca float, align 4, addrspace(5)
  store float 0.0, ptr addrspace(5) %t3
  %t4 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t4
  %t5 = alloca i32, align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %t5
  %t6 = alloca i1, align 4, addrspace(5)
  store i1 false, ptr addrspace(5) %t6
  %t7 = getelementptr float, ptr addrspace(1) %p0, i32 %p1
  %t8 = getelementptr float, ptr addrspace(1) %p3, i32 %p4
  store i32 %p6, ptr addrspace(5) %t0
  %t9 = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %t9, ptr addrspace(5) %t1
  %t10 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t11 = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %t12 = getelementptr i8, ptr addrspace(4) %t11, i64 4
  %t13 = load i16, ptr addrspace(4) %t12, align 2
  %t14 = zext i16 %t13 to i32
  %t15 = mul i32 %t10, %t14
  %t16 = load i32, ptr addrspace(5) %t1
  %t17 = add i32 %t15, %t16
  store i32 %t17, ptr addrspace(5) %t2
  %t21 = load i32, ptr addrspace(5) %t2
  %t22 = load i32, ptr addrspace(5) %t0
  %t23 = add i32 %t22, 64
  %t24 = icmp sge i32 %t21, %t23
  br i1 %t24, label %L18, label %L20
L18:
  store i1 true, ptr addrspace(5) %t6
  br label %L20
L20:
  %t28 = load i1, ptr addrspace(5) %t6
  %t29 = xor i1 %t28, true
  br i1 %t29, label %L25, label %L27
L25:
  %t33 = load i32, ptr addrspace(5) %t2
  %t34 = load i32, ptr addrspace(5) %t0
  %t35 = icmp slt i32 %t33, %t34
  br i1 %t35, label %L30, label %L31
L30:
  %t39 = load i32, ptr addrspace(5) %t2
  %t40 = icmp uge i32 %t39, %p5
  br i1 %t40, label %L36, label %L38
L36:
  %t41 = load i32, ptr addrspace(5) %t2
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 3, i32 0, i32 %t41, i32 %p5)
  store i1 true, ptr addrspace(5) %t6
  br label %L38
L38:
  %t45 = load i1, ptr addrspace(5) %t6
  %t46 = xor i1 %t45, true
  br i1 %t46, label %L42, label %L44
L42:
  %t47 = load i32, ptr addrspace(5) %t2
  %t48 = getelementptr float, ptr addrspace(1) %t8, i32 %t47
  %t49 = load float, ptr addrspace(1) %t48, align 4
  store float %t49, ptr addrspace(5) %t3
  br label %L44
L44:
  br label %L32
L31:
  store float 0x0000000000000000, ptr addrspace(5) %t3
  br label %L32
L32:
  br label %L27
L27:
  %t53 = load i1, ptr addrspace(5) %t6
  %t54 = xor i1 %t53, true
  br i1 %t54, label %L50, label %L52
L50:
  %t58 = load i32, ptr addrspace(5) %t1
  %t59 = icmp uge i32 %t58, 64
  br i1 %t59, label %L55, label %L57
L55:
  %t60 = load i32, ptr addrspace(5) %t1
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 1, i32 1, i32 %t60, i32 64)
  store i1 true, ptr addrspace(5) %t6
  br label %L57
L57:
  br label %L52
L52:
  %t64 = load i1, ptr addrspace(5) %t6
  %t65 = xor i1 %t64, true
  br i1 %t65, label %L61, label %L63
L61:
  %t66 = load i32, ptr addrspace(5) %t1
  %t67 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t66
  %t68 = load float, ptr addrspace(5) %t3
  store float %t68, ptr addrspace(3) %t67, align 4
  br label %L63
L63:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  store i32 32, ptr addrspace(5) %t4
  br label %L69
L69:
  %t75 = load i32, ptr addrspace(5) %t4
  %t76 = icmp sgt i32 %t75, 0
  %t77 = xor i1 %t76, true
  br i1 %t77, label %L72, label %L74
L72:
  br label %L71
L74:
  %t81 = load i1, ptr addrspace(5) %t6
  %t82 = xor i1 %t81, true
  br i1 %t82, label %L78, label %L80
L78:
  %t86 = load i32, ptr addrspace(5) %t1
  %t87 = load i32, ptr addrspace(5) %t4
  %t88 = icmp slt i32 %t86, %t87
  br i1 %t88, label %L83, label %L85
L83:
  %t89 = load i32, ptr addrspace(5) %t1
  %t90 = load i32, ptr addrspace(5) %t4
  %t91 = add i32 %t89, %t90
  store i32 %t91, ptr addrspace(5) %t5
  %t92 = load i32, ptr addrspace(5) %t1
  %t93 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t92
  %t94 = load i32, ptr addrspace(5) %t1
  %t95 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t94
  %t96 = load float, ptr addrspace(3) %t95, align 4
  %t97 = load i32, ptr addrspace(5) %t5
  %t98 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t97
  %t99 = load float, ptr addrspace(3) %t98, align 4
  %t100 = fadd float %t96, %t99
  store float %t100, ptr addrspace(3) %t93, align 4
  br label %L85
L85:
  br label %L80
L80:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br label %L70
L70:
  %t101 = load i32, ptr addrspace(5) %t4
  %t102 = ashr i32 %t101, 1
  store i32 %t102, ptr addrspace(5) %t4
  br label %L69
L71:
  %t106 = load i1, ptr addrspace(5) %t6
  %t107 = xor i1 %t106, true
  br i1 %t107, label %L103, label %L105
L103:
  %t111 = load i32, ptr addrspace(5) %t1
  %t112 = icmp eq i32 %t111, 0
  br i1 %t112, label %L108, label %L110
L108:
  %t116 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t117 = icmp uge i32 %t116, %p2
  br i1 %t117, label %L113, label %L115
L113:
  %t118 = call i32 @llvm.amdgcn.workgroup.id.x()
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t118, i32 %p2)
  store i1 true, ptr addrspace(5) %t6
  br label %L115
L115:
  %t122 = load i1, ptr addrspace(5) %t6
  %t123 = xor i1 %t122, true
  br i1 %t123, label %L119, label %L121
L119:
  %t124 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t125 = getelementptr float, ptr addrspace(1) %t7, i32 %t124
  %t126 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 0
  %t127 = load float, ptr addrspace(3) %t126, align 4
  store float %t127, ptr addrspace(1) %t125, align 4
  br label %L121
L121:
  br label %L110
L110:
  br label %L105
L105:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
