import { exposeEngineHost } from "./expose-engine-host.js";
import { isClientHello, type EngineHost, type WorkerHello } from "./protocol.js";

/** Options for {@link serveEngineClients}. */
export interface EngineClientsOptions {
  /** Resolves when the client named by its hello is gone (in the worker: when its Web Lock comes free). */
  clientGone: (client: string) => Promise<void>;
  /** The worker's own lock name, sent back in the hello. */
  workerLock: string;
  /** Ends the worker (in the worker: `self.close()`), so the next tab to connect starts a fresh one. */
  restart: () => void;
}

/** A load that failed this way leaves transformers.js unable to load anything in this worker (engine-client.ts). */
const poisonsTheWorker = (error: unknown) => {
  const { code, reason } = (error ?? {}) as { code?: string; reason?: string };
  return code === "load_failed" || reason === "damaged";
};

/**
 * One engine host for every tab of the origin (the SharedWorker's side of
 * worker/engine-worker.ts). Each port that connects is a client with a view
 * of the one host in which its downloads and generations are its own: their
 * ids are prefixed with the client's, so `cancel` reaches only them, and a
 * client that is gone has them cancelled. The model, its load and the
 * generation queue are the host's: one copy in memory, generations run in
 * the order they came (the engine queues them). A load that fails ends the
 * worker once its answer is posted, as a dedicated worker is ended by its
 * client: the tabs then see the worker gone, and the next load starts a fresh one.
 */
export function serveEngineClients(host: EngineHost, options: EngineClientsOptions): { connect(port: MessagePort): void } {
  return {
    connect(port) {
      const hello = ({ data }: MessageEvent) => {
        if (!isClientHello(data)) return;
        // Comlink listens from the next message on: the port holds them meanwhile.
        port.removeEventListener("message", hello);
        exposeEngineHost(clientView(host, data.webAgentsClient, options), port);
        port.postMessage({ webAgentsWorker: options.workerLock } satisfies WorkerHello);
      };
      port.addEventListener("message", hello);
      port.start();
    },
  };
}

function clientView(host: EngineHost, client: string, options: EngineClientsOptions): EngineHost {
  const running = new Set<string>();
  const own = <T>(id: string, task: (hostId: string) => Promise<T>): Promise<T> => {
    const hostId = `${client}:${id}`;
    running.add(hostId);
    return task(hostId).finally(() => running.delete(hostId));
  };
  void options.clientGone(client).then(() => {
    for (const id of running) void host.cancel(id).catch(() => {});
  });
  return {
    probe: () => host.probe(),
    cacheStatus: (model) => host.cacheStatus(model),
    download: (id, model, onProgress) => own(id, (hostId) => host.download(hostId, model, onProgress)),
    load: (model, onProgress) =>
      host.load(model, onProgress).catch((error: unknown) => {
        // After this task: comlink posts the rejection first.
        if (poisonsTheWorker(error)) setTimeout(options.restart, 0);
        throw error;
      }),
    generate: (request, onEvent) => own(request.id, (hostId) => host.generate({ ...request, id: hostId }, onEvent)),
    cancel: (id) => host.cancel(`${client}:${id}`),
    deleteModel: (model) => host.deleteModel(model),
  };
}
