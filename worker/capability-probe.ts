import type { DeviceCapabilities } from "./protocol.js";

interface GpuAdapterLike {
  features: { has(name: string): boolean };
  limits: { maxBufferSize?: number; maxStorageBufferBindingSize?: number };
  isFallbackAdapter?: boolean;
  info?: { isFallbackAdapter?: boolean };
}

/**
 * What this browser can run, before anything is downloaded: a WebGPU adapter
 * (and whether it is a software fallback such as SwiftShader), `shader-f16`,
 * buffer limits, the storage estimate, cores and cross-origin isolation.
 * Works in a window or a worker; in Node it reports no WebGPU.
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
  if (estimate?.quota !== undefined) capabilities.storageQuota = estimate.quota;
  if (estimate?.usage !== undefined) capabilities.storageUsage = estimate.usage;
  return capabilities;
}
