import { formatBytes } from "../runtime/errors/format-bytes.js";
import { EngineError } from "./engine-error.js";
import type { EngineErrorData, ModelSource, PolicyBlock } from "./protocol.js";

/** What a sentence is built from: an error's data, as it crosses the worker boundary. */
export type EngineErrorFacts = Pick<EngineErrorData, "code" | "reason" | "host" | "file" | "status" | "neededBytes" | "freeBytes" | "directive" | "allow">;

/** How the worker names a model in a sentence when it has no label: the repo's last part (`Qwen3-0.6B-ONNX`). */
export const modelDisplayName = (model: Pick<ModelSource, "repo">) => model.repo.split("/").filter(Boolean).at(-1) ?? model.repo;

/**
 * Every sentence a person reads about a failed download or load, in one
 * place: what happened and what to do next (try again, free space, use the
 * cloud), never the browser's or engine's own words (those stay in
 * `detail`). `model` is the name the person knows the model by. The worker
 * builds its errors' messages with it (naming the model by its repo), and the
 * local adapter builds them again with the catalog's label. Undefined when
 * the facts carry no reason it knows: the caller keeps the error's message.
 */
export function engineErrorMessage(facts: EngineErrorFacts, model: string): string | undefined {
  const host = facts.host ?? "the model server";
  const file = facts.file ?? "a file";
  switch (facts.reason) {
    case "unreachable":
      return `Could not reach ${host} to download ${model}. Check your connection and try again.`;
    case "connection_dropped":
      return `The connection to ${host} dropped while downloading ${model}. Try again: the download resumes where it stopped.`;
    case "http_status":
      return `Could not download ${model}: ${host} answered ${facts.status === undefined ? "with an error" : `HTTP ${facts.status}`} for ${file}. Try again later, or use the cloud model.`;
    case "not_a_model_file":
      return `Could not download ${model}: ${host} sent a web page instead of ${file}, so this site does not serve the model. Use the cloud model instead.`;
    case "size_mismatch":
      return `${file} of ${model} arrived with the wrong size (cut short, or not the expected file), so nothing was kept. Try again.`;
    case "hash_mismatch":
      return `${file} of ${model} arrived corrupted (it does not match its sha256), so nothing was kept. Try again.`;
    case "storage_failed":
      return `This browser could not save ${model}. Free up some space and try again, or use the cloud model.`;
    case "damaged":
      return `The saved copy of ${model} was damaged and has been removed. Download it again.`;
    case "outdated":
      return `${model} was updated since it was saved on this device. Download it again: the files that did not change are reused.`;
    case "evicted":
      return `The browser deleted part of the saved copy of ${model} to free space, so the rest was removed too. Download it again.`;
    case "engine_failed":
      return `${model} could not start in this browser. Reload the page and try again, or use the cloud model.`;
    case "blocked_by_policy":
      if (facts.directive && facts.allow) return policyBlockMessage({ directive: facts.directive, allow: facts.allow }, model);
      break;
    case undefined:
      break;
  }
  if (facts.code === "quota_exceeded" && facts.neededBytes !== undefined) {
    // The browser refused although its estimate has room: its limit for this site is lower than the estimate says (private windows, some browsers).
    if (facts.freeBytes !== undefined && facts.freeBytes >= facts.neededBytes) {
      return `The browser would not store ${model} (${formatBytes(facts.neededBytes)}) for this site, though it reports ${formatBytes(facts.freeBytes)} free: its limit for this site is lower. Try a normal (not private) window, free up space, or choose a smaller model.`;
    }
    const free = facts.freeBytes === undefined ? "less than that is free" : `${formatBytes(facts.freeBytes)} is free`;
    return `Not enough storage for ${model}: it needs ${formatBytes(facts.neededBytes)} and ${free}. Free up space or choose a smaller model.`;
  }
  if (facts.code === "not_cached") return `${model} is not on this device. Download it first.`;
  return undefined;
}

/**
 * The sentence for a part of the on-device model that the site's
 * Content-Security-Policy blocks: what is blocked, and what the site must
 * add where. The person cannot fix it; the site's developer reads it.
 */
export function policyBlockMessage(block: PolicyBlock, model = "the on-device model"): string {
  const what = block.allow === "'wasm-unsafe-eval'" ? `WebAssembly, which ${model} runs on` : block.directive === "connect-src" ? `the download of ${model} from ${block.allow}` : `a file ${model} needs`;
  return `This site's Content-Security-Policy blocks ${what}: the site must add ${block.allow} to ${block.directive}. Until then, use the cloud model.`;
}

/**
 * An `EngineError` about `model` whose message is {@link engineErrorMessage}'s
 * sentence (naming the model by its repo), with the facts kept as fields.
 */
export function modelEngineError(data: Omit<EngineErrorData, "message">, model: Pick<ModelSource, "repo">, cause?: unknown): EngineError {
  const message = engineErrorMessage(data, modelDisplayName(model)) ?? data.detail ?? "The on-device model failed.";
  return new EngineError({ ...data, message }, cause === undefined ? undefined : { cause });
}
