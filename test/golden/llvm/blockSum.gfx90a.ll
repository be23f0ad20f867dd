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
  %t6 = alloca i8, align 4, addrspace(5)
  store i8 0, ptr addrspace(5) %t6
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
  store i8 1, ptr addrspace(5) %t6
  br label %L20
L20:
  %t28 = load i8, ptr addrspace(5) %t6
  %t29 = trunc i8 %t28 to i1
  %t30 = xor i1 %t29, true
  br i1 %t30, label %L25, label %L27
L25:
  %t34 = load i32, ptr addrspace(5) %t2
  %t35 = load i32, ptr addrspace(5) %t0
  %t36 = icmp slt i32 %t34, %t35
  br i1 %t36, label %L31, label %L32
L31:
  %t40 = load i32, ptr addrspace(5) %t2
  %t41 = icmp uge i32 %t40, %p5
  br i1 %t41, label %L37, label %L39
L37:
  %t42 = load i32, ptr addrspace(5) %t2
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 3, i32 0, i32 %t42, i32 %p5)
  store i8 1, ptr addrspace(5) %t6
  br label %L39
L39:
  %t46 = load i8, ptr addrspace(5) %t6
  %t47 = trunc i8 %t46 to i1
  %t48 = xor i1 %t47, true
  br i1 %t48, label %L43, label %L45
L43:
  %t49 = load i32, ptr addrspace(5) %t2
  %t50 = getelementptr float, ptr addrspace(1) %t8, i32 %t49
  %t51 = load float, ptr addrspace(1) %t50, align 4
  store float %t51, ptr addrspace(5) %t3
  br label %L45
L45:
  br label %L33
L32:
  store float 0x0000000000000000, ptr addrspace(5) %t3
  br label %L33
L33:
  br label %L27
L27:
  %t55 = load i8, ptr addrspace(5) %t6
  %t56 = trunc i8 %t55 to i1
  %t57 = xor i1 %t56, true
  br i1 %t57, label %L52, label %L54
L52:
  %t61 = load i32, ptr addrspace(5) %t1
  %t62 = icmp uge i32 %t61, 64
  br i1 %t62, label %L58, label %L60
L58:
  %t63 = load i32, ptr addrspace(5) %t1
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 1, i32 1, i32 %t63, i32 64)
  store i8 1, ptr addrspace(5) %t6
  br label %L60
L60:
  br label %L54
L54:
  %t67 = load i8, ptr addrspace(5) %t6
  %t68 = trunc i8 %t67 to i1
  %t69 = xor i1 %t68, true
  br i1 %t69, label %L64, label %L66
L64:
  %t70 = load i32, ptr addrspace(5) %t1
  %t71 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t70
  %t72 = load float, ptr addrspace(5) %t3
  store float %t72, ptr addrspace(3) %t71, align 4
  br label %L66
L66:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  store i32 32, ptr addrspace(5) %t4
  br label %L73
L73:
  %t79 = load i32, ptr addrspace(5) %t4
  %t80 = icmp sgt i32 %t79, 0
  %t81 = xor i1 %t80, true
  br i1 %t81, label %L76, label %L78
L76:
  br label %L75
L78:
  %t85 = load i8, ptr addrspace(5) %t6
  %t86 = trunc i8 %t85 to i1
  %t87 = xor i1 %t86, true
  br i1 %t87, label %L82, label %L84
L82:
  %t91 = load i32, ptr addrspace(5) %t1
  %t92 = load i32, ptr addrspace(5) %t4
  %t93 = icmp slt i32 %t91, %t92
  br i1 %t93, label %L88, label %L90
L88:
  %t94 = load i32, ptr addrspace(5) %t1
  %t95 = load i32, ptr addrspace(5) %t4
  %t96 = add i32 %t94, %t95
  store i32 %t96, ptr addrspace(5) %t5
  %t97 = load i32, ptr addrspace(5) %t1
  %t98 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t97
  %t99 = load i32, ptr addrspace(5) %t1
  %t100 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t99
  %t101 = load float, ptr addrspace(3) %t100, align 4
  %t102 = load i32, ptr addrspace(5) %t5
  %t103 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 %t102
  %t104 = load float, ptr addrspace(3) %t103, align 4
  %t105 = fadd float %t101, %t104
  store float %t105, ptr addrspace(3) %t98, align 4
  br label %L90
L90:
  br label %L84
L84:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br label %L74
L74:
  %t106 = load i32, ptr addrspace(5) %t4
  %t107 = ashr i32 %t106, 1
  store i32 %t107, ptr addrspace(5) %t4
  br label %L73
L75:
  %t111 = load i8, ptr addrspace(5) %t6
  %t112 = trunc i8 %t111 to i1
  %t113 = xor i1 %t112, true
  br i1 %t113, label %L108, label %L110
L108:
  %t117 = load i32, ptr addrspace(5) %t1
  %t118 = icmp eq i32 %t117, 0
  br i1 %t118, label %L114, label %L116
L114:
  %t122 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t123 = icmp uge i32 %t122, %p2
  br i1 %t123, label %L119, label %L121
L119:
  %t124 = call i32 @llvm.amdgcn.workgroup.id.x()
  call void @gpuc_rt0_gpuc_report_exception(ptr addrspace(1) %p7, i32 %p8, i32 2, i32 2, i32 %t124, i32 %p2)
  store i8 1, ptr addrspace(5) %t6
  br label %L121
L121:
  %t128 = load i8, ptr addrspace(5) %t6
  %t129 = trunc i8 %t128 to i1
  %t130 = xor i1 %t129, true
  br i1 %t130, label %L125, label %L127
L125:
  %t131 = call i32 @llvm.amdgcn.workgroup.id.x()
  %t132 = getelementptr float, ptr addrspace(1) %t7, i32 %t131
  %t133 = getelementptr float, ptr addrspace(3) @gpuc_blockSum.shared0_s, i32 0
  %t134 = load float, ptr addrspace(3) %t133, align 4
  store float %t134, ptr addrspace(1) %t132, align 4
  br label %L127
L127:
  br label %L116
L116:
  br label %L110
L110:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }
