// Why a kernel's parameter cannot take an argument: the argument-type and unsupported-array
// CompileErrors of a launch or compile({ args }). kernel.ts tells the types of the arguments it
// can pass on every launch; this module, loaded on a call's first such mistake, says why one
// cannot, so that its messages stay out of what a page loads at start.

import { CompileError, quoteName } from "./errors.js";
import { DeviceArray, deviceArrayElement, type Device } from "./devices/device.js";
import { ARRAY_CONSTRUCTOR, describeArgument, describeValue, hostArrayElement, type ElementType } from "./typed-arrays.js";
import { HOST_ARRAY_NAMES, unsupportedArray } from "./devices/common.js";

/** An argument its parameter cannot take (kernel.ts found it); `device`: the launch's, where the array was the mistake (another device's, or detached). */
export interface ArgumentMistake {
  readonly value: unknown;
  readonly declared: string | null;
  readonly param: string;
  readonly kernel: string;
  readonly device: Device | null;
}

/** What kernels take, for messages about an argument they do not. */
const TAKES = `kernels take numbers, booleans, typed arrays (${HOST_ARRAY_NAMES}), device arrays, objects of numbers ({ x: 1.5, n: 2 }) or Arrays of objects of one shape`;

/** The error that says what is wrong with the argument. */
export function argumentError(m: ArgumentMistake): CompileError {
  const { value: a, declared, device } = m;
  const bad = (kind: "argument-type" | "unsupported-array", what: string) => CompileError.single(kind, `argument ${quoteName(m.param)} of kernel ${quoteName(m.kernel)} ${what}`);
  if (device) {
    if (a instanceof DeviceArray) return bad("argument-type", `is an array of another device (${a.device.kind}); this launch is on ${device.kind} (copy it: dev.array(await array.read()))`);
    return bad("argument-type", `is a ${describeValue(a)} whose buffer was detached (transferred by postMessage, structuredClone or transfer()): it has no data to pass`);
  }
  const given = declared ? `is declared ${declared} but got` : "got";
  if (typeof a === "number") {
    if (declared?.endsWith("[]")) return bad("argument-type", `${given} ${describeArgument(a)}; pass a ${arrayName(declared)}`);
    // JavaScript would wrap 2.5 or 2**32 into an i32 without a word: gpuc says so instead.
    return bad("argument-type", `${given} ${Object.is(a, -0) ? "-0" : a}, which is not an ${declared} value (${declared === "i32" ? "an integer from -2147483648 to 2147483647: x | 0 converts one" : "an integer from 0 to 4294967295: x >>> 0 converts one"})`);
  }
  if (typeof a === "boolean") return bad("argument-type", `${given} ${describeArgument(a)}`);
  if (a === null || a === undefined) return bad("argument-type", `${given} ${a}, which only an array parameter may be given (an absent optional array); pass a ${declared === "bool" ? "boolean" : "number"}`);
  const elem = hostArrayElement(a) ?? deviceArrayElement(a);
  if (elem) return bad("argument-type", `${given} ${hostArrayElement(a) ? describeValue(a) : `a device array of ${elem}`}`);
  const array = unsupportedArray(a);
  if (array) return bad("unsupported-array", `${given} ${array}; ${declared?.endsWith("[]") ? `pass a ${arrayName(declared)}` : TAKES}`);
  const convert = typeof a === "bigint" ? " (convert it: Number(x))" : typeof a === "string" ? " (convert it: Number(s))" : "";
  return bad("argument-type", `${given} ${describeArgument(a)}${convert}; ${declared?.endsWith("[]") ? `pass a ${arrayName(declared)}` : declared ? `pass a number` : TAKES}`);
}

/** "Float32Array" for "f32[]". */
function arrayName(type: string): string {
  return ARRAY_CONSTRUCTOR[type.slice(0, -2) as ElementType]?.name ?? type;
}
