// The WGSL target's helpers: WGSL functions the emitted code calls where JavaScript's meaning
// needs more than a built-in (legal.ts marks those ops `helper`), collected by
// targets/helpers.ts (helperClosure) and emitted before the kernel.

import type { Helper } from "../helpers.js";

interface WGSLHelper extends Helper { readonly text: string }

/** WGSL functions gpuc's code may call, for JS semantics WGSL's built-ins do not have (each with the helpers it calls). */
export const WGSL_HELPERS: Readonly<Record<string, WGSLHelper>> = {
  gpuc_bits: { deps: [], text: "var<private> gpuc_special: vec2<u32> = vec2<u32>(0x7f800000u, 0x7fc00000u);" },
  gpuc_inf: { deps: ["gpuc_bits"], text: "fn gpuc_inf() -> f32 { return bitcast<f32>(gpuc_special.x); }" },
  gpuc_nan: { deps: ["gpuc_bits"], text: "fn gpuc_nan() -> f32 { return bitcast<f32>(gpuc_special.y); }" },
  // An index as a run-time value (not a const-expression): for constant indices into arrays sized at launch.
  gpuc_index: { deps: [], text: "fn gpuc_index(i: i32) -> i32 { return i; }" },
  // Narrow arrays are packed in u32 words: element e of a word w, read as the typed array reads it,
  // and w with element e replaced by v's low bits.
  gpuc_ld_i8: { deps: [], text: "fn gpuc_ld_i8(w: u32, e: u32) -> i32 { return bitcast<i32>(w << (24u - (e & 3u) * 8u)) >> 24u; }" },
  gpuc_ld_u8: { deps: [], text: "fn gpuc_ld_u8(w: u32, e: u32) -> i32 { return bitcast<i32>((w >> ((e & 3u) * 8u)) & 0xffu); }" },
  gpuc_ld_i16: { deps: [], text: "fn gpuc_ld_i16(w: u32, e: u32) -> i32 { return bitcast<i32>(w << (16u - (e & 1u) * 16u)) >> 16u; }" },
  gpuc_ld_u16: { deps: [], text: "fn gpuc_ld_u16(w: u32, e: u32) -> i32 { return bitcast<i32>((w >> ((e & 1u) * 16u)) & 0xffffu); }" },
  gpuc_isnan: { deps: [], text: "fn gpuc_isnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }" },
  // JS's Math.sign, for cbrt: NaN and signed zeros come back as they are (WGSL's sign() may give 0 for NaN).
  gpuc_signf: { deps: ["gpuc_isnan"], text: "fn gpuc_signf(x: f32) -> f32 { if (gpuc_isnan(x) || x == 0.0) { return x; } return select(-1.0, 1.0, x > 0.0); }" },
  // JS's % on f32 values, exactly (the result of fmod is always representable): the quotient's
  // bits one exponent step at a time on the 24-bit significands (musl's fmodf, by bits).
  gpuc_fmodf: { deps: ["gpuc_nan"], text: [
    "fn gpuc_fmodf(x: f32, y: f32) -> f32 {",
    "  let ux = bitcast<u32>(x);",
    "  let sx = ux & 0x80000000u;",
    "  let ax = ux & 0x7fffffffu;",
    "  let ay = bitcast<u32>(y) & 0x7fffffffu;",
    "  if (ax >= 0x7f800000u || ay > 0x7f800000u || ay == 0u) { return gpuc_nan(); }",
    "  if (ax < ay) { return x; }",
    "  if (ax == ay) { return bitcast<f32>(sx); }",
    "  // Significands with the implicit bit; a subnormal's is normalized (its exponent goes below 1).",
    "  var ex = i32(ax >> 23u);",
    "  var ey = i32(ay >> 23u);",
    "  var mx = (ax & 0x7fffffu) | 0x800000u;",
    "  var my = (ay & 0x7fffffu) | 0x800000u;",
    "  if (ex == 0) { let s = countLeadingZeros(ax) - 8u; mx = ax << s; ex = 1 - i32(s); }",
    "  if (ey == 0) { let s = countLeadingZeros(ay) - 8u; my = ay << s; ey = 1 - i32(s); }",
    "  // mx < 2 * my < 2^25 throughout.",
    "  for (var n = ex - ey; n > 0; n = n - 1) {",
    "    if (mx >= my) { mx = mx - my; }",
    "    if (mx == 0u) { return bitcast<f32>(sx); }",
    "    mx = mx << 1u;",
    "  }",
    "  if (mx >= my) { mx = mx - my; }",
    "  if (mx == 0u) { return bitcast<f32>(sx); }",
    "  let s = countLeadingZeros(mx) - 8u;",
    "  mx = mx << s;",
    "  ey = ey - i32(s);",
    "  if (ey > 0) { return bitcast<f32>(sx | (u32(ey) << 23u) | (mx & 0x7fffffu)); }",
    "  return bitcast<f32>(sx | (mx >> u32(1 - ey)));",
    "}",
  ].join("\n") },
  gpuc_pow: { deps: ["gpuc_isnan", "gpuc_nan", "gpuc_inf"], text: [
    "fn gpuc_pow(x: f32, y: f32) -> f32 {",
    "  if (y == 0.0) { return 1.0; }",
    "  if (gpuc_isnan(x) || gpuc_isnan(y)) { return gpuc_nan(); }",
    // (An infinite y is no fraction and not odd, whichever way the driver's != takes fract's NaN.)
    "  let finite = (bitcast<u32>(y) & 0x7f800000u) != 0x7f800000u;",
    "  let odd = finite && fract(y * 0.5) != 0.0 && fract(y) == 0.0;",
    "  if (x == 0.0) {",
    "    let negative = odd && (bitcast<u32>(x) >> 31u) == 1u;",
    "    let r = select(0.0, gpuc_inf(), y < 0.0);",
    "    return select(r, -r, negative);",
    "  }",
    "  let a = exp2(y * log2(abs(x)));",
    "  if (x < 0.0) {",
    "    if (finite && fract(y) != 0.0) { return gpuc_nan(); }",
    "    return select(a, -a, odd);",
    "  }",
    "  return a;",
    "}",
  ].join("\n") },
  gpuc_atan2: { deps: [], text: [
    "fn gpuc_atan2(y: f32, x: f32) -> f32 {",
    "  if (y == 0.0 && x == 0.0) {",
    "    // JS: atan2(±0, +0) = ±0 and atan2(±0, -0) = ±π.",
    "    if ((bitcast<u32>(x) >> 31u) == 0u) { return y; }",
    "    return select(3.14159274, -3.14159274, (bitcast<u32>(y) >> 31u) == 1u);",
    "  }",
    "  return atan2(y, x);",
    "}",
  ].join("\n") },
};
