// Sizes known at launch: the element count of a dynamic shared array (`shared(Float32Array, n)`
// with n computed from the kernel's scalar parameters and the block size), as data that every
// target's loader evaluates with the launch's arguments. JavaScript's meaning, on i32.

/** A launch-uniform size: a kernel parameter (by position), blockDim, a constant, an op on them, or a choice between two by a comparison (`c <= 32 ? 2 * c : c`). */
export type SizeExpr =
  | { k: "param"; index: number }
  | { k: "blockDim"; axis: 0 | 1 | 2 }
  | { k: "const"; value: number }
  | { k: "op"; op: SizeOp; args: [SizeExpr, SizeExpr] }
  | { k: "select"; cmp: SizeCmp; args: [SizeExpr, SizeExpr]; a: SizeExpr; b: SizeExpr };

export type SizeOp = "add" | "sub" | "mul" | "div" | "rem" | "shl" | "shr" | "and" | "or" | "min" | "max";
export const SIZE_OPS: readonly SizeOp[] = ["add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "min", "max"];
/** The comparisons (of i32 values) a select of sizes tests. */
export type SizeCmp = "lt" | "le" | "gt" | "ge" | "eq" | "ne";
export const SIZE_CMPS: readonly SizeCmp[] = ["lt", "le", "gt", "ge", "eq", "ne"];

/** Whether a comparison of two i32 values holds. */
export function compareSizes(cmp: SizeCmp, a: number, b: number): boolean {
  switch (cmp) {
    case "lt": return a < b;
    case "le": return a <= b;
    case "gt": return a > b;
    case "ge": return a >= b;
    case "eq": return a === b;
    case "ne": return a !== b;
  }
}

/** Whether a size reads nothing of the launch (a constant, however it is written). */
export function constantSize(e: SizeExpr): boolean {
  switch (e.k) {
    case "param": case "blockDim": return false;
    case "const": return true;
    case "op": return constantSize(e.args[0]) && constantSize(e.args[1]);
    case "select": return constantSize(e.args[0]) && constantSize(e.args[1]) && constantSize(e.a) && constantSize(e.b);
  }
}

/** The size at a launch (i32 arithmetic, as the kernel computes it: wrapping, x / 0 is 0). */
export function evalSize(e: SizeExpr, args: readonly unknown[], threads: readonly number[]): number {
  switch (e.k) {
    case "param": return Number(args[e.index]) | 0;
    case "blockDim": return threads[e.axis] | 0;
    case "const": return e.value | 0;
    case "select": return compareSizes(e.cmp, evalSize(e.args[0], args, threads), evalSize(e.args[1], args, threads)) ? evalSize(e.a, args, threads) : evalSize(e.b, args, threads);
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
    case "select": {
      const cmp: Record<SizeCmp, string> = { lt: "<", le: "<=", gt: ">", ge: ">=", eq: "===", ne: "!==" };
      return `(${sizeText(e.args[0], params)} ${cmp[e.cmp]} ${sizeText(e.args[1], params)} ? ${sizeText(e.a, params)} : ${sizeText(e.b, params)})`;
    }
    case "op": return e.op === "min" || e.op === "max" ? `Math.${e.op}(${sizeText(e.args[0], params)}, ${sizeText(e.args[1], params)})` : `(${sizeText(e.args[0], params)} ${sym[e.op]} ${sizeText(e.args[1], params)})`;
  }
}
