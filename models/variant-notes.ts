/*
 * What a chosen variant says on its download card, and where its files come
 * from by default: read by resolve-variant.ts, which must not load the
 * catalog itself (the default catalog loads when the adapter first probes).
 */

/** Where model files come from unless a site serves its own copy. */
export const DEFAULT_MODEL_BASE_URL = "https://huggingface.co";

/**
 * The note on the download card where the CPU variant is the one that runs:
 * the same model, on the processor. Every CPU variant gets it (the test
 * models too); a catalog model adds {@link CPU_SLOWER_NOTE}.
 */
export const CPU_FALLBACK_NOTE = "No WebGPU in this browser: the model runs on the processor (CPU).";

/**
 * Added to {@link CPU_FALLBACK_NOTE} for a real model (not a test model,
 * whose few weights answer quickly anywhere): its replies come more slowly
 * than on a graphics chip.
 */
export const CPU_SLOWER_NOTE = "Replies come more slowly than on a graphics chip.";
