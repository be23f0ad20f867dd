// Functions of its own that the LLVM IR back end's code calls (ARCHITECTURE.md "How to add a
// target": helpers), each written once per module where a kernel needs it: on AMD GPUs, a
// correctly rounded f64 square root (LLVM 16's llvm.sqrt is v_sqrt_f64 there, which is not).

/** A float constant as LLVM IR spells it: the value's double bits in hex (an f32 value is exact as a double). */
export function floatConst(v: number): string {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, v);
  return `0x${b.getBigUint64(0).toString(16).toUpperCase().padStart(16, "0")}`;
}

/** A helper: its name, the declarations it needs and its definition. */
export interface LLVMHelper { name: string; declares: string[]; text: string }

/**
 * An AMD GPU's correctly rounded f64 square root, `gpuc_sqrt_f64` (what LLVM 17 and AMD's device
 * library do; test/llvm-sqrt.test.ts runs this text on the host with the hardware's estimate made
 * worse, and checks every result against the host's sqrt): v_rsq_f64's estimate r ≈ 1/√x, then
 * y = x·r and h = r/2 refined together (one Goldschmidt step), and two corrections
 * y += (x − y²)·h with y² − x exact in an fma — the last one rounds the exact root correctly
 * (Markstein). Inputs below 2^-767 are scaled by 2^256 first (their roots by 2^-128 after: both
 * exact), so that no step is subnormal. ±0 and +∞ are their own roots; a negative or NaN input
 * gives rsq's NaN.
 */
export function sqrtF64Helper(cc: string): LLVMHelper {
  const name = "gpuc_sqrt_f64";
  const fma = (r: string, a: string, b: string, c: string) => `  %${r} = call double @llvm.fma.f64(double ${a}, double ${b}, double ${c})`;
  return {
    name,
    declares: ["declare double @llvm.amdgcn.rsq.f64(double)", "declare double @llvm.fma.f64(double, double, double)"],
    text: [
      `define internal ${cc}double @${name}(double %x) {`,
      "entry:",
      `  %small = fcmp olt double %x, ${floatConst(2 ** -767)}`,
      `  %up = fmul double %x, ${floatConst(2 ** 256)}`,
      "  %xs = select i1 %small, double %up, double %x",
      "  %r0 = call double @llvm.amdgcn.rsq.f64(double %xs)",
      "  %y0 = fmul double %xs, %r0",
      "  %h0 = fmul double %r0, 0.5",
      "  %nh0 = fneg double %h0",
      fma("e0", "%nh0", "%y0", "0.5"),
      fma("h1", "%h0", "%e0", "%h0"),
      fma("y1", "%y0", "%e0", "%y0"),
      "  %ny1 = fneg double %y1",
      fma("d0", "%ny1", "%y1", "%xs"),
      fma("y2", "%d0", "%h1", "%y1"),
      "  %ny2 = fneg double %y2",
      fma("d1", "%ny2", "%y2", "%xs"),
      fma("y3", "%d1", "%h1", "%y2"),
      `  %down = fmul double %y3, ${floatConst(2 ** -128)}`,
      "  %y = select i1 %small, double %down, double %y3",
      "  %zero = fcmp oeq double %xs, 0.0",
      `  %inf = fcmp oeq double %xs, ${floatConst(Infinity)}`,
      "  %own = or i1 %zero, %inf",
      "  %res = select i1 %own, double %xs, double %y",
      "  ret double %res",
      "}",
      "",
    ].join("\n"),
  };
}
