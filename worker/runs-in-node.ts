/** The engine runs in Node (the project's tests and benches), not in a browser worker: the CPU backend, no wasm paths, setImmediate. */
export const RUNS_IN_NODE = typeof process !== "undefined" && !!process.versions?.node && typeof window === "undefined";
