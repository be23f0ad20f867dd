// Hand-written PTX for operations without an instruction, linked into a module when its code
// uses them (by name, with their dependencies first).

import type { Helper } from "../helpers.js";

interface PreludeFunction extends Helper { signature: string; body: string }

/**
 * `gpuc_fmod(x, y)`: C's fmod on f64, exactly (JS's `%` on floats; f32 operands are widened,
 * which is exact, and the exact result narrows back without rounding). The long division of
 * the significands goes one bit of exponent difference per step (musl's algorithm): no
 * rounding anywhere, so the result is the exact remainder with the sign of x.
 */
const FMOD: PreludeFunction = {
  signature: ".func (.param .f64 gpuc_fmod_ret) gpuc_fmod(.param .f64 gpuc_fmod_x, .param .f64 gpuc_fmod_y)",
  deps: [],
  body: `{
  .reg .pred %p<6>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<16>;
  .reg .f64 %fd<4>;
  ld.param.f64 %fd1, [gpuc_fmod_x];
  ld.param.f64 %fd2, [gpuc_fmod_y];
  mov.b64 %rd1, %fd1;
  mov.b64 %rd2, %fd2;
  shr.u64 %rd3, %rd1, 52;
  cvt.u32.u64 %r1, %rd3;
  and.b32 %r1, %r1, 2047;
  shr.u64 %rd3, %rd2, 52;
  cvt.u32.u64 %r2, %rd3;
  and.b32 %r2, %r2, 2047;
  and.b64 %rd7, %rd1, -9223372036854775808;
  // y = +-0, y NaN, x infinite or NaN: NaN.
  shl.b64 %rd5, %rd2, 1;
  setp.eq.u64 %p1, %rd5, 0;
  testp.notanumber.f64 %p2, %fd2;
  or.pred %p1, %p1, %p2;
  setp.eq.u32 %p2, %r1, 2047;
  or.pred %p1, %p1, %p2;
  @%p1 bra $gpuc_fmod_nan;
  // |x| <= |y|: x, or a zero with x's sign when equal.
  shl.b64 %rd6, %rd1, 1;
  setp.gt.u64 %p2, %rd6, %rd5;
  @%p2 bra $gpuc_fmod_main;
  setp.eq.u64 %p3, %rd6, %rd5;
  @%p3 bra $gpuc_fmod_zero;
  st.param.f64 [gpuc_fmod_ret], %fd1;
  ret;
$gpuc_fmod_main:
  // Significands with the implicit bit; subnormals normalized (exponent below 1).
  setp.eq.u32 %p3, %r1, 0;
  @%p3 bra $gpuc_fmod_xsub;
  and.b64 %rd8, %rd1, 4503599627370495;
  or.b64 %rd8, %rd8, 4503599627370496;
  bra $gpuc_fmod_y;
$gpuc_fmod_xsub:
  shl.b64 %rd9, %rd1, 12;
  clz.b64 %r3, %rd9;
  neg.s32 %r1, %r3;
  add.s32 %r4, %r3, 1;
  shl.b64 %rd8, %rd1, %r4;
$gpuc_fmod_y:
  setp.eq.u32 %p3, %r2, 0;
  @%p3 bra $gpuc_fmod_ysub;
  and.b64 %rd10, %rd2, 4503599627370495;
  or.b64 %rd10, %rd10, 4503599627370496;
  bra $gpuc_fmod_loop;
$gpuc_fmod_ysub:
  shl.b64 %rd9, %rd2, 12;
  clz.b64 %r3, %rd9;
  neg.s32 %r2, %r3;
  add.s32 %r4, %r3, 1;
  shl.b64 %rd10, %rd2, %r4;
$gpuc_fmod_loop:
  // One bit of the quotient per exponent step.
  setp.le.s32 %p3, %r1, %r2;
  @%p3 bra $gpuc_fmod_last;
  sub.s64 %rd11, %rd8, %rd10;
  setp.lt.s64 %p4, %rd11, 0;
  @%p4 bra $gpuc_fmod_shift;
  setp.eq.s64 %p5, %rd11, 0;
  @%p5 bra $gpuc_fmod_zero;
  mov.b64 %rd8, %rd11;
$gpuc_fmod_shift:
  shl.b64 %rd8, %rd8, 1;
  add.s32 %r1, %r1, -1;
  bra $gpuc_fmod_loop;
$gpuc_fmod_last:
  sub.s64 %rd11, %rd8, %rd10;
  setp.lt.s64 %p4, %rd11, 0;
  @%p4 bra $gpuc_fmod_norm;
  setp.eq.s64 %p5, %rd11, 0;
  @%p5 bra $gpuc_fmod_zero;
  mov.b64 %rd8, %rd11;
$gpuc_fmod_norm:
  // Shift the leading one back to bit 52.
  clz.b64 %r3, %rd8;
  add.s32 %r3, %r3, -11;
  shl.b64 %rd8, %rd8, %r3;
  sub.s32 %r1, %r1, %r3;
  setp.gt.s32 %p3, %r1, 0;
  @!%p3 bra $gpuc_fmod_subnormal;
  add.s64 %rd8, %rd8, -4503599627370496;
  cvt.u64.u32 %rd12, %r1;
  shl.b64 %rd12, %rd12, 52;
  or.b64 %rd8, %rd8, %rd12;
  bra $gpuc_fmod_done;
$gpuc_fmod_subnormal:
  neg.s32 %r4, %r1;
  add.s32 %r4, %r4, 1;
  shr.u64 %rd8, %rd8, %r4;
$gpuc_fmod_done:
  or.b64 %rd8, %rd8, %rd7;
  mov.b64 %fd3, %rd8;
  st.param.f64 [gpuc_fmod_ret], %fd3;
  ret;
$gpuc_fmod_zero:
  mov.b64 %fd3, %rd7;
  st.param.f64 [gpuc_fmod_ret], %fd3;
  ret;
$gpuc_fmod_nan:
  st.param.f64 [gpuc_fmod_ret], 0d7FF8000000000000;
  ret;
}`,
};

export const PTX_PRELUDE: Record<string, PreludeFunction> = { gpuc_fmod: FMOD };
