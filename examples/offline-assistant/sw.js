// The offline assistant's service worker: network first, and every response
// the assistant's page and its engine worker fetch is kept, so after one
// visit the page, its modules and the engine load with the network off. The
// model files are not kept here: the engine keeps them in its own Cache API
// cache. Served by examples/offline-assistant/serve-service-worker.ts with
// `Service-Worker-Allowed: /`, since the engine worker's script lives
// outside /offline-assistant/.
const CACHE = "offline-assistant-v1";
const SCOPE_PAGE = "/offline-assistant/";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** The page sends what it loaded before this worker controlled it. */
self.addEventListener("message", (event) => {
  if (event.data?.type !== "precache" || !Array.isArray(event.data.urls)) return;
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(
        event.data.urls.map((url) =>
          fetch(url)
            .then((response) => (response.ok ? cache.put(url, response) : undefined))
            .catch(() => undefined),
        ),
      ),
    ).then(() => event.source?.postMessage({ type: "precached" })),
  );
});

/** Whether a request belongs to the assistant: its page, or a page or worker it runs. */
async function forAssistant(event) {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith("/models/") || url.pathname.startsWith("/api/")) return false;
  if (event.request.mode === "navigate") return url.pathname.startsWith(SCOPE_PAGE);
  const client = event.clientId ? await self.clients.get(event.clientId) : undefined;
  if (!client) return false;
  return client.type === "worker" || new URL(client.url).pathname.startsWith(SCOPE_PAGE);
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    // Vite answers with `Vary: Origin`; a module script asks with an Origin, the precache without.
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/models/") || url.pathname.startsWith("/api/")) return;
  event.respondWith(forAssistant(event).then((mine) => (mine ? networkFirst(event.request) : fetch(event.request))));
});
