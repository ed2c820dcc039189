/**
 * The cloud adapter: the model runs behind your `/api/chat` endpoint
 * (`createChatHandler`), every tool call runs on the page.
 * @module
 */
export { createCloudAdapter } from "./create-cloud-adapter.js";
export type { CloudAdapterOptions } from "./create-cloud-adapter.js";
export { turnstileHeaders } from "./turnstile-headers.js";
export type { TurnstileHeadersOptions } from "./turnstile-headers.js";
