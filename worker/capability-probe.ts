import { findViolation, policyBlockOf } from "../runtime/errors/policy-violations.js";
import type { DeviceCapabilities, PolicyBlock } from "./protocol.js";

interface GpuAdapterLike {
  features: { has(name: string): boolean };
  limits: { maxBufferSize?: number; maxStorageBufferBindingSize?: number };
  isFallbackAdapter?: boolean;
  info?: { isFallbackAdapter?: boolean };
}

/**
 * What this browser can run, before anything is downloaded: a WebGPU adapter
 * (and whether it is a software fallback such as SwiftShader), `shader-f16`,
 * buffer limits, the storage estimate, cores and cross-origin isolation,
 * and whether a Content-Security-Policy blocks WebAssembly here (every
 * engine needs it). Works in a window or a worker; in Node it reports no WebGPU.
 */
export async function probeCapabilities(): Promise<DeviceCapabilities> {
  const navigatorLike = (globalThis as { navigator?: Navigator }).navigator;
  const capabilities: DeviceCapabilities = {
    webgpu: false,
    fallbackAdapter: false,
    shaderF16: false,
    cores: navigatorLike?.hardwareConcurrency ?? 1,
    crossOriginIsolated: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true,
  };
  const gpu = (navigatorLike as { gpu?: { requestAdapter(): Promise<GpuAdapterLike | null> } } | undefined)?.gpu;
  const [adapter, estimate] = await Promise.all([
    gpu?.requestAdapter().catch(() => null) ?? Promise.resolve(null),
    navigatorLike?.storage?.estimate?.().catch(() => undefined) ?? Promise.resolve(undefined),
  ]);
  if (adapter) {
    capabilities.webgpu = true;
    // Chrome moved the flag from the adapter to adapter.info (GPUAdapterInfo.isFallbackAdapter).
    capabilities.fallbackAdapter = adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false;
    capabilities.shaderF16 = adapter.features.has("shader-f16");
    if (adapter.limits.maxBufferSize !== undefined) capabilities.maxBufferSize = adapter.limits.maxBufferSize;
    if (adapter.limits.maxStorageBufferBindingSize !== undefined) capabilities.maxStorageBufferBindingSize = adapter.limits.maxStorageBufferBindingSize;
  }
  const blocked = await wasmBlockedByPolicy();
  if (blocked) capabilities.blockedByPolicy = blocked;
  if (estimate?.quota !== undefined) capabilities.storageQuota = estimate.quota;
  if (estimate?.usage !== undefined) capabilities.storageUsage = estimate.usage;
  return capabilities;
}

/** The smallest module there is: the magic number and version 1. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/**
 * Compiles an empty module: under a Content-Security-Policy whose script-src
 * has neither `'wasm-unsafe-eval'` nor `'unsafe-eval'` the browser refuses
 * and reports a `wasm-eval` violation (watched by policy-violations.ts,
 * which the engine worker starts). Undefined where it compiles, or fails
 * for another reason.
 */
async function wasmBlockedByPolicy(): Promise<PolicyBlock | undefined> {
  if (typeof WebAssembly === "undefined") return undefined;
  try {
    new WebAssembly.Module(EMPTY_MODULE);
    return undefined;
  } catch {
    const violation = await findViolation((seen) => seen.blocked === "wasm-eval");
    return violation && policyBlockOf(violation);
  }
}
