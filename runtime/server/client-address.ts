const addresses = new WeakMap<Request, string>();

/** Records the network peer of `request` (as `toNodeListener` saw it on the socket). */
export function setClientAddress(request: Request, address: string): void {
  addresses.set(request, address);
}

/**
 * The default client key for rate limiting: the socket's address when the
 * request came through `toNodeListener`, else the first of `cf-connecting-ip`,
 * `x-real-ip` and `x-forwarded-for` (set by an edge platform or proxy; a
 * client can forge them where nothing in front overwrites them), else
 * undefined. Behind your own reverse proxy every request has the proxy's
 * address: pass `clientKey` to read the header it sets.
 */
export function defaultClientKey(request: Request): string | undefined {
  const socket = addresses.get(request);
  if (socket !== undefined) return socket;
  const headers = request.headers;
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return headers.get("cf-connecting-ip") ?? headers.get("x-real-ip") ?? (forwarded || undefined);
}
