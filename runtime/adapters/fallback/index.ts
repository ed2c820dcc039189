/**
 * The fallback adapter: several adapters tried in order, a turn that fails
 * on the device continuing on the next one.
 * @module
 */
export { createFallbackAdapter } from "./create-fallback-adapter.js";
export type { FallbackAdapter, FallbackAdapterOptions, FallbackNotice } from "./create-fallback-adapter.js";
export { DEVICE_FAILURE_CODES } from "./device-failure.js";
export { STATUS_ORDER } from "./best-status.js";
