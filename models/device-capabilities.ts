import type { PolicyBlock } from "../runtime/errors/policy-violations.js";

export type { PolicyBlock };

/**
 * What a browser can run, as the worker's capability probe finds it
 * (`worker/capability-probe.ts`) and the catalog's variant choice reads it
 * (`resolve-variant.ts`).
 */
export interface DeviceCapabilities {
  webgpu: boolean;
  /** The adapter is a software fallback (SwiftShader): correct but slow. */
  fallbackAdapter: boolean;
  shaderF16: boolean;
  /** `maxBufferSize` / `maxStorageBufferBindingSize` of the adapter, in bytes. */
  maxBufferSize?: number;
  maxStorageBufferBindingSize?: number;
  /** `navigator.storage.estimate()`. */
  storageQuota?: number;
  storageUsage?: number;
  /** Logical cores (`navigator.hardwareConcurrency`) and cross-origin isolation (threads in WASM). */
  cores: number;
  crossOriginIsolated: boolean;
  /**
   * What the engine worker's Content-Security-Policy blocks that every model
   * needs (WebAssembly, without `'wasm-unsafe-eval'`), as the
   * `securitypolicyviolation` it raised names it. Absent when nothing is.
   */
  blockedByPolicy?: PolicyBlock;
}

