/** Options for {@link withModelLock}. */
export interface ModelLockOptions {
  signal?: AbortSignal;
  /** Called every `pollMs` while another tab holds the lock (to follow its progress). */
  whileWaiting?: () => void | Promise<void>;
  /** Default 250. */
  pollMs?: number;
}

/**
 * Runs `task` holding the Web Lock `web-agents-model:<key>`, so that two tabs
 * (two workers of one origin) preparing the same model download it once: the
 * second waits, then finds it cached. Where `navigator.locks` is missing the
 * task runs at once, as before locks. An abort while waiting rejects with an
 * `AbortError` and never runs the task.
 */
export async function withModelLock<T>(key: string, task: () => Promise<T>, options: ModelLockOptions = {}): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks?.request) return task();
  const name = `web-agents-model:${key}`;
  const { signal, whileWaiting, pollMs = 250 } = options;
  signal?.throwIfAborted();
  // Held right away when free: then nothing waits and nothing polls.
  const now = await locks.request(name, { ifAvailable: true }, async (lock) => (lock ? { value: await task() } : undefined));
  if (now) return now.value;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiting = true;
  const poll = () => {
    timer = setTimeout(async () => {
      await Promise.resolve(whileWaiting?.()).catch(() => {});
      if (waiting) poll();
    }, pollMs);
  };
  if (whileWaiting) poll();
  try {
    return await locks.request(name, signal ? { signal } : {}, async () => {
      waiting = false;
      clearTimeout(timer);
      return task();
    });
  } finally {
    waiting = false;
    clearTimeout(timer);
  }
}
