import type { WebAgent, WebAgentInvokeOptions, WebAgentResult } from "./web-agent.js";

/**
 * What `agent.invoke` does: checks the call, then loads the browser loop with
 * a dynamic `import()` and runs it, on `options.adapter` or else the seeds'
 * default, the `createCloudAdapter()` the chat shares (also loaded lazily, so
 * a page that always passes an adapter never loads the cloud code). The only
 * place `agent/` names `session/` or an adapter, and only lazily, so an agent
 * stays plain data that a server can import, and the session knows no adapter.
 *
 * Never throws: every failure is a rejection. Rejects with a `TypeError` for
 * an empty message, with an `Error` on the server (no `document`), and with a
 * `DOMException` named `"AbortError"` when `options.signal` is already aborted.
 */
export async function invokeWebAgentLazily(
  agent: WebAgent,
  text: string,
  options?: WebAgentInvokeOptions,
): Promise<WebAgentResult> {
  if (typeof text !== "string" || text.trim() === "") {
    throw new TypeError(`agent.invoke needs a non-empty message: ${agent.id}.invoke("What is in my cart?").`);
  }
  if (typeof document === "undefined") {
    throw new Error(
      `agent.invoke is browser only: it runs the ${agent.id} agent on the page's tools. ` +
        "On the server, register the agent with createChatHandler({ agents }) instead.",
    );
  }
  if (options?.signal?.aborted) {
    throw new DOMException(`agent.invoke was aborted before the ${agent.id} agent started.`, "AbortError");
  }
  const [{ invokeWebAgent }, adapter] = await Promise.all([
    import("../session/invoke-web-agent.js"),
    options?.adapter ?? import("../adapters/cloud/shared-cloud-adapter.js").then(({ sharedCloudAdapter }) => sharedCloudAdapter()),
  ]);
  return invokeWebAgent(agent, text, { ...options, adapter });
}
