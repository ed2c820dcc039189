/**
 * The chat handler under fuzzed bodies, over real HTTP on 127.0.0.1 (the AI
 * SDK's MockLanguageModelV3 stands in for a provider): valid requests with
 * random parts replaced by any JSON, and raw hostile text. Every answer is a
 * documented status with a JSON error body or an event stream; never a 500,
 * never a secret (the file's responses are all scanned). Sessions and a
 * daily budget are on, so their paths see every body too.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createChatHandler } from "./create-chat-handler.js";
import { scriptedModel, textStep } from "./test-support/scripted-model.js";
import { expectNoSecretsInResponses, SECRETS, serveHandler, type Served } from "./test-support/serve-handler.js";
import { fuzzRuns } from "../test-support/fuzz-property.js";
import { deepNesting, hostileMix, hugeToken } from "../test-support/hostile-text.js";

/** HTTP cases cost ~1-5 ms each: a tenth of the parsers' count (1,000 in CI, 10,000 under `npm run fuzz`). */
const RUNS = Math.max(200, Math.round(fuzzRuns() / 10));
/** What the handler may answer a body with (README: the server's status table). */
const DOCUMENTED = new Set([200, 400, 413, 415, 429, 503]);

let served: Served;
let cookie = "";
const logger = { warn: vi.fn(), error: vi.fn() };

beforeAll(async () => {
  const handler = createChatHandler({
    model: scriptedModel([textStep("ok")]),
    logger,
    session: { secret: SECRETS.sessionSecret },
    dailyBudget: { tokens: 1_000_000_000 },
    maxBodyBytes: 64_000,
  });
  served = await serveHandler(handler);
  cookie = (await fetch(served.url)).headers.get("set-cookie")?.split(";")[0] ?? "";
});

afterAll(async () => {
  await served.close();
  await expectNoSecretsInResponses();
});

const valid = () => ({
  page: { url: "http://127.0.0.1/shop", title: "Shop" },
  messages: [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Add socks" }] },
    { id: "a1", role: "assistant", parts: [{ type: "tool", id: "c1", name: "add_to_cart", input: { sku: "socks" }, state: "done", output: { content: [{ type: "text", text: "ok" }] } }] },
    { id: "u2", role: "user", parts: [{ type: "text", text: "Thanks" }] },
  ],
  tools: [{ name: "add_to_cart", description: "Adds.", inputSchema: { type: "object", properties: { sku: { type: "string" } } } }],
});

/** The paths of every value in `value`, parents first. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [prefix];
  const children = Object.entries(value).flatMap(([key, child]) => paths(child, [...prefix, Array.isArray(value) ? Number(key) : key]));
  return [prefix, ...children];
}

/** `root` with the value at `path` replaced; unchanged where an earlier edit already replaced a parent. */
function replaceAt(root: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (typeof node !== "object" || node === null) return root;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (typeof node === "object" && node !== null) (node as Record<string | number, unknown>)[path.at(-1)!] = replacement;
  return root;
}

const target = valid();
const allPaths = paths(target);
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom("__proto__", "constructor", JSON.parse('{"__proto__": {"polluted": true}}') as unknown, -1, 1e308, "", [], {}));

/** A valid body with one to three values (or whole subtrees) swapped for any JSON. */
const mutatedBody = fc
  .array(fc.tuple(fc.nat({ max: allPaths.length - 1 }), anyJson), { minLength: 1, maxLength: 3 })
  .map((edits) => {
    let body: unknown = valid();
    // A copy of each replacement: fast-check hands the same constant object to many cases, and an edit inside one must not reach the others.
    for (const [index, replacement] of edits) body = replaceAt(body, allPaths[index]!, JSON.parse(JSON.stringify(replacement) ?? "null"));
    return JSON.stringify(body) ?? "null";
  });

const rawBody = fc.oneof(
  hostileMix(fc.string({ maxLength: 20 }), ['{"messages":', '"parts":[', '{"type":"text"', "]}", "}", '"tools":', "\\u0000", '"'], 30),
  hugeToken,
  deepNesting,
);

async function post(body: string): Promise<Response> {
  return fetch(served.url, { method: "POST", headers: { "content-type": "application/json", cookie }, body });
}

describe("createChatHandler under fuzzed bodies (real HTTP; the provider is a mock)", () => {
  it(`answers ${RUNS} mutated requests and ${RUNS} raw hostile bodies with documented statuses, never a 500`, async () => {
    const statuses = new Map<number, number>();
    const check = async (body: string) => {
      const response = await post(body);
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(DOCUMENTED.has(response.status), `${response.status} for ${body.slice(0, 200)}: ${text.slice(0, 200)}`).toBe(true);
      if (response.status === 200) expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      else expect(JSON.parse(text)).toEqual(expect.objectContaining({ error: expect.any(String), message: expect.any(String) }));
    };
    await fc.assert(fc.asyncProperty(mutatedBody, check), { numRuns: RUNS });
    await fc.assert(fc.asyncProperty(rawBody, check), { numRuns: RUNS });
    console.log(`[fuzz] chat handler: ${RUNS * 2} bodies; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    expect(logger.error).not.toHaveBeenCalled();
    // The server is still healthy afterwards.
    expect((await post(JSON.stringify(valid()))).status).toBe(200);
  }, 600_000);
});
