// What a cloud run needs beyond the availability check: the transport, the
// step loop, SSE and the request history. createCloudAdapter loads it on the
// first run, so a page that renders the chat ships only the check.
export { createChatTransport } from "./create-chat-transport.js";
export { runCloudSteps } from "./run-cloud-steps.js";
