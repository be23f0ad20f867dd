// The layout of the kernel state (ARCHITECTURE.md, "The kernel state and the runtime library"): one
// i32 array per launch, passed to every runtime function that uses it. Kept apart so that loaders
// need nothing of the compiler.
//
//   [0]        exception code (0: none; else 1 + index into the module's message table)
//   [1]        location id of the exception (-1: unknown)
//   [2], [3]   two i32 payload values (e.g. the index and the length of a bounds error)
//   [4]        threadIdx of the thread that raised it, packed: x | y << 10 | z << 20 (every device
//              limits a block to x, y ≤ 1024 and z ≤ 64); one word fewer than three (each word
//              of the record cost lavapipe's shader compile ~4.5 ms when stored one by one; on
//              WGSL the record goes to two texels of a texture instead: targets/wgsl/emit.ts, §m)
//   [5]        the record's claim: the thread whose atomic add finds 0 writes [0..4] and [7..9]
//   [6]        unused
//   [7..9]     blockIdx
//   [10]       number of call-chain frames recorded (debug level 2)
//   [11..26]   frame location ids, innermost first
//   [27]       print cursor (words used in the print area)
//   [28]       print records dropped because the area was full
//   [32..]     the print area: records of [format id, threadIdx x y z, blockIdx x y z, values…]

// (The record's first four words are contiguous from CODE, as the WebGPU device puts the first
// texel of WGSL's record there: devices/webgpu.ts; tsc checks it.)
export const STATE = {
  CODE: 0, CLAIM: 5, LOC: 1, A: 2, B: 3, THREAD: 4, BLOCK: 7, NFRAMES: 10, FRAMES: 11, MAX_FRAMES: 16,
  PRINT_CURSOR: 27, PRINT_DROPPED: 28, PRINT_BASE: 32, PRINT_HEADER: 7,
} as const satisfies { CODE: 0; LOC: 1; A: 2; B: 3; THREAD: 4 } & Record<string, number>;
