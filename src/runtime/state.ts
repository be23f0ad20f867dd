// The layout of the kernel state, the per-launch i32 array of the runtime library (see
// library.ts for what each slot holds). Kept apart so that loaders need nothing of the compiler.

export const STATE = {
  CODE: 0, LOC: 1, A: 2, B: 3, THREAD: 4, BLOCK: 7, NFRAMES: 10, FRAMES: 11, MAX_FRAMES: 16,
  PRINT_CURSOR: 27, PRINT_DROPPED: 28, PRINT_BASE: 32, PRINT_HEADER: 7,
} as const;
