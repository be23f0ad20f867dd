// SPIR-V's binary form as gpuc writes it: the opcodes, enumerants and OpenCL.std instructions it
// uses (numbers from the SPIR-V 1.0 specification and the OpenCL.std extended instruction set), and
// the module builder: sections in the order the specification requires, ids, interned types and
// constants.

export const Op = {
  Name: 5, ExtInstImport: 11, ExtInst: 12, MemoryModel: 14, EntryPoint: 15, ExecutionMode: 16, Capability: 17,
  TypeVoid: 19, TypeBool: 20, TypeInt: 21, TypeFloat: 22, TypeVector: 23, TypeArray: 28, TypePointer: 32, TypeFunction: 33,
  ConstantTrue: 41, ConstantFalse: 42, Constant: 43, ConstantComposite: 44, ConstantNull: 46, Function: 54, FunctionParameter: 55, FunctionEnd: 56, FunctionCall: 57,
  Variable: 59, Load: 61, Store: 62, AccessChain: 65, PtrAccessChain: 67, Decorate: 71, CompositeExtract: 81,
  ConvertFToU: 109, ConvertFToS: 110, ConvertSToF: 111, ConvertUToF: 112, UConvert: 113, SConvert: 114, FConvert: 115,
  ConvertPtrToU: 117, ConvertUToPtr: 120, Bitcast: 124,
  SNegate: 126, FNegate: 127, IAdd: 128, FAdd: 129, ISub: 130, FSub: 131, IMul: 132, FMul: 133, UDiv: 134, SDiv: 135, FDiv: 136,
  UMod: 137, SRem: 138,
  IsNan: 156, IsInf: 157, IsFinite: 158, LogicalEqual: 164, LogicalNotEqual: 165, LogicalOr: 166, LogicalAnd: 167, LogicalNot: 168,
  Select: 169, IEqual: 170, INotEqual: 171, UGreaterThan: 172, SGreaterThan: 173, UGreaterThanEqual: 174, SGreaterThanEqual: 175,
  ULessThan: 176, SLessThan: 177, ULessThanEqual: 178, SLessThanEqual: 179, FOrdEqual: 180, FOrdNotEqual: 182, FUnordNotEqual: 183,
  FOrdLessThan: 184, FOrdGreaterThan: 186, FOrdLessThanEqual: 188, FOrdGreaterThanEqual: 190,
  ShiftRightLogical: 194, ShiftRightArithmetic: 195, ShiftLeftLogical: 196, BitwiseOr: 197, BitwiseXor: 198, BitwiseAnd: 199, Not: 200,
  ControlBarrier: 224, MemoryBarrier: 225, AtomicLoad: 227, AtomicStore: 228, AtomicExchange: 229, AtomicCompareExchange: 230,
  AtomicIAdd: 234, AtomicISub: 235, AtomicSMin: 236, AtomicUMin: 237, AtomicSMax: 238, AtomicUMax: 239, AtomicAnd: 240, AtomicOr: 241, AtomicXor: 242,
  Label: 248, Branch: 249, BranchConditional: 250, Switch: 251, Return: 253, ReturnValue: 254, Unreachable: 255,
} as const;

export const Capability = { Addresses: 4, Kernel: 6, Float64: 10, Int64: 11, Int16: 22, Int8: 39 } as const;
export const StorageClass = { UniformConstant: 0, Input: 1, Workgroup: 4, CrossWorkgroup: 5, Function: 7 } as const;
export const BuiltIn = { NumWorkgroups: 24, WorkgroupSize: 25, WorkgroupId: 26, LocalInvocationId: 27 } as const;
export const Decoration = { BuiltIn: 11, Constant: 22 } as const;
export const ExecutionMode = { LocalSize: 17, ContractionOff: 31 } as const;
export const Scope = { Device: 1, Workgroup: 2 } as const;
/** SequentiallyConsistent with the memory the operation orders: Workgroup 0x100, CrossWorkgroup 0x200. */
export const Semantics = { SeqCst: 0x10, WorkgroupMemory: 0x100, CrossWorkgroupMemory: 0x200 } as const;

/** OpenCL.std extended instructions. */
export const CL = {
  acos: 0, acosh: 1, asin: 3, asinh: 4, atan: 6, atan2: 7, atanh: 8, cbrt: 11, ceil: 12, cos: 14, cosh: 15, exp: 19, expm1: 22,
  fabs: 23, floor: 25, fmax: 27, fmin: 28, fmod: 29, hypot: 32, log: 37, log2: 38, log10: 39, log1p: 40, pow: 48, sin: 57, sinh: 59,
  sqrt: 61, tan: 62, tanh: 63, trunc: 66, s_abs: 141, clz: 151, s_max: 156, u_max: 157, s_min: 158, u_min: 159,
} as const;

export const MAGIC = 0x07230203;

/** A SPIR-V string operand: UTF-8, nul-terminated, padded to whole words. */
export function stringWords(s: string): number[] {
  const bytes = new TextEncoder().encode(s);
  const out = new Array<number>(Math.floor(bytes.length / 4) + 1).fill(0);
  bytes.forEach((b, i) => { out[i >> 2] |= b << ((i & 3) * 8); });
  return out.map((w) => w >>> 0);
}

/** A module being written: its sections in the specification's order, ids, interned types and constants. */
export class SpirvBuilder {
  private bound = 1;
  readonly capabilities = new Set<number>();
  readonly imports: number[] = [];
  readonly entries: number[] = [];
  readonly modes: number[] = [];
  readonly names: number[] = [];
  readonly decorations: number[] = [];
  readonly globals: number[] = [];
  readonly functions: number[] = [];
  private interned = new Map<string, number>();

  id(): number { return this.bound++; }

  emit(section: number[], op: number, operands: readonly number[]): void {
    section.push(((operands.length + 1) << 16) | op, ...operands.map((w) => w >>> 0));
  }

  /** An interned global (type or constant) by key: made once with `make(id)`. */
  intern(key: string, make: (id: number) => void): number {
    let id = this.interned.get(key);
    if (id === undefined) { id = this.id(); this.interned.set(key, id); make(id); }
    return id;
  }

  type(key: string, op: number, operands: readonly number[]): number {
    return this.intern(`t:${key}`, (id) => this.emit(this.globals, op, [id, ...operands]));
  }

  words(): Uint32Array {
    const caps: number[] = [];
    for (const c of [...this.capabilities].sort((a, b) => a - b)) this.emit(caps, Op.Capability, [c]);
    const memory: number[] = [];
    this.emit(memory, Op.MemoryModel, [2 /* Physical64 */, 2 /* OpenCL */]);
    const body = [...caps, ...this.imports, ...memory, ...this.entries, ...this.modes, ...this.names, ...this.decorations, ...this.globals, ...this.functions];
    return Uint32Array.from([MAGIC, 0x00010000, 0, this.bound, 0, ...body]);
  }
}
