// The vector kernels' WebAssembly module (vector-kernels.wat): compiled once per process, one instance (and memory) per matrix that asks.
import { VECTOR_KERNELS_WASM_BASE64 } from "./vector-kernels-wasm.js";

/** The few WebAssembly globals used here: lib ES2022 and @types/node 20 declare none. Undefined in a runtime without WebAssembly. */
interface WasmModule {
  readonly wasmModule: unique symbol;
}
declare const WebAssembly:
  | {
      validate(bytes: Uint8Array): boolean;
      Module: new (bytes: Uint8Array) => WasmModule;
      Instance: new (module: WasmModule) => { exports: unknown };
    }
  | undefined;

/** What vector-kernels.wat exports (addresses and counts are i32). */
export interface VectorKernels {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  dots(matrix: number, d: number, query: number, rows: number, n: number, out: number): void;
  dots4(matrix: number, bytes: number, query: number, rows: number, n: number, out: number): void;
  hamming(codes: number, bytes: number, query: number, n: number, dist: number, hist: number): void;
}

const PAGE = 65536;

export function align16(n: number): number {
  return (n + 15) & ~15;
}

/** Compiled on first use; null where WebAssembly or its SIMD instructions are missing (the module does not validate). */
let compiled: WasmModule | null | undefined;
function kernelModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = Uint8Array.from(atob(VECTOR_KERNELS_WASM_BASE64), (c) => c.charCodeAt(0));
    compiled = typeof WebAssembly === "object" && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/** True when this runtime runs the SIMD kernels (Node 20 and Bun do). */
export function simdAvailable(): boolean {
  return kernelModule() !== null;
}

/** A fresh instance with its own memory, or undefined: no SIMD, or a runtime out of address space for one more wasm memory. */
export function newKernels(): VectorKernels | undefined {
  const mod = kernelModule();
  if (!mod) return undefined;
  try {
    return new WebAssembly!.Instance(mod).exports as VectorKernels;
  } catch {
    return undefined;
  }
}

/** Grows `k`'s memory to at least `bytes`; true when it grew (which detaches every view of the old buffer). */
export function reserveBytes(k: VectorKernels, bytes: number): boolean {
  const have = k.memory.buffer.byteLength;
  if (bytes <= have) return false;
  k.memory.grow(Math.ceil((bytes - have) / PAGE));
  return true;
}
