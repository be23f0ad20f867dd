// Sizes known at launch: the element count of a dynamic shared array (`shared(Float32Array, n)`
// with n computed from the kernel's scalar parameters and the block size), as data that every
// target's loader evaluates with the launch's arguments. JavaScript's meaning, on i32.

/** A launch-uniform size: a kernel parameter (by position), blockDim, a constant, or an op on them. */
export type SizeExpr =
  | { k: "param"; index: number }
  | { k: "blockDim"; axis: 0 | 1 | 2 }
  | { k: "const"; value: number }
  | { k: "op"; op: SizeOp; args: [SizeExpr, SizeExpr] };

export type SizeOp = "add" | "sub" | "mul" | "div" | "rem" | "shl" | "shr" | "and" | "or" | "min" | "max";
export const SIZE_OPS: readonly SizeOp[] = ["add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "min", "max"];

/** The size at a launch (i32 arithmetic, as the kernel computes it: wrapping, x / 0 is 0). */
export function evalSize(e: SizeExpr, args: readonly unknown[], threads: readonly number[]): number {
  switch (e.k) {
    case "param": return Number(args[e.index]) | 0;
    case "blockDim": return threads[e.axis] | 0;
    case "const": return e.value | 0;
    case "op": {
      const a = evalSize(e.args[0], args, threads), b = evalSize(e.args[1], args, threads);
      switch (e.op) {
        case "add": return (a + b) | 0;
        case "sub": return (a - b) | 0;
        case "mul": return Math.imul(a, b);
        case "div": return b === 0 ? 0 : (a / b) | 0;
        case "rem": return b === 0 ? 0 : (a % b) | 0;
        case "shl": return a << b;
        case "shr": return a >> b;
        case "and": return a & b;
        case "or": return a | b;
        case "min": return Math.min(a, b);
        case "max": return Math.max(a, b);
      }
    }
  }
}

/** The size as source text, for messages ("n * 2"): parameters by name. */
export function sizeText(e: SizeExpr, params: readonly string[]): string {
  const sym: Record<SizeOp, string> = { add: "+", sub: "-", mul: "*", div: "/", rem: "%", shl: "<<", shr: ">>", and: "&", or: "|", min: "min", max: "max" };
  switch (e.k) {
    case "param": return params[e.index] ?? `#${e.index}`;
    case "blockDim": return `blockDim.${"xyz"[e.axis]}`;
    case "const": return String(e.value);
    case "op": return e.op === "min" || e.op === "max" ? `Math.${e.op}(${sizeText(e.args[0], params)}, ${sizeText(e.args[1], params)})` : `(${sizeText(e.args[0], params)} ${sym[e.op]} ${sizeText(e.args[1], params)})`;
  }
}
