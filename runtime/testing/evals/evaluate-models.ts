// The on-device half of evaluateAgent, loaded only when it is given models:
// it brings the local adapter, the variant choice and the engine worker.
import type { CatalogEntry } from "../../../models/catalog-schema.js";
import type { DeviceCapabilities } from "../../../models/device-capabilities.js";
import { resolveVariant } from "../../../models/resolve-variant.js";
import type { EngineHost } from "../../../worker/protocol.js";
import { createLocalAdapter } from "../../adapters/local/create-local-adapter.js";
import { loadDefaultEngine } from "../../adapters/local/load-default-engine.js";
import type { AgentAdapter } from "../../session/agent-adapter.js";
import type { AgentScenario, ScenarioGeneration } from "./agent-scenario.js";
import type { EvalModel, EvalModelResult, EvalScenarioResult } from "./eval-report.js";
import type { EvalModelsOptions } from "./evaluate-agent.js";
import { errorOf } from "./error-of.js";
import { modelResult } from "./model-result.js";

type RunAll = (adapter: AgentAdapter, model: EvalModel, scenarios: readonly AgentScenario[], generation: ScenarioGeneration | undefined) => Promise<EvalScenarioResult[]>;

/** The scenarios grouped by their generation settings, in first-seen order: one adapter per group. */
function byGeneration(scenarios: readonly AgentScenario[]): [ScenarioGeneration | undefined, AgentScenario[]][] {
  const groups = new Map<string, [ScenarioGeneration | undefined, AgentScenario[]]>();
  for (const scenario of scenarios) {
    const key = JSON.stringify(scenario.generation ?? null);
    if (!groups.has(key)) groups.set(key, [scenario.generation, []]);
    groups.get(key)![1].push(scenario);
  }
  return [...groups.values()];
}

/** An entry as the report names it, with the variant that runs on this device. */
function entryModel(entry: CatalogEntry, capabilities: DeviceCapabilities): EvalModel {
  const resolved = resolveVariant(entry, capabilities);
  if (!resolved) return { id: entry.id, label: entry.label, adapter: "local" };
  const { variant } = resolved;
  const bytes = variant.bytes ?? variant.files?.reduce((total, file) => total + file.bytes, 0);
  return {
    id: entry.id,
    label: resolved.label,
    adapter: "local",
    ...(bytes !== undefined && { bytes }),
    repo: variant.repo,
    revision: variant.revision ?? "main",
    engine: variant.engine,
    device: variant.device,
    dtype: variant.dtype,
    format: entry.format ?? "qwen3",
    key: resolved.key,
  };
}

/**
 * Each entry in turn, on one engine: selected, downloaded if needed and
 * loaded (`prepare`), then every scenario group with its generation
 * settings in an adapter of its own (the settings are the adapter's).
 */
export async function evaluateModels(
  options: EvalModelsOptions,
  scenarios: readonly AgentScenario[],
  runAll: RunAll,
  signal: AbortSignal | undefined,
): Promise<{ capabilities: DeviceCapabilities | undefined; results: EvalModelResult[] }> {
  let host: EngineHost;
  let capabilities: DeviceCapabilities;
  try {
    host = typeof options.host === "function" ? await options.host() : (options.host ?? (await loadDefaultEngine()));
    capabilities = await host.probe();
  } catch (error) {
    const failed = errorOf(error);
    return { capabilities: undefined, results: options.entries.map((entry) => modelResult({ id: entry.id, label: entry.label, adapter: "local" }, [], failed)) };
  }
  const results: EvalModelResult[] = [];
  for (const entry of options.entries) {
    if (signal?.aborted) break;
    const model = entryModel(entry, capabilities);
    if (model.engine === undefined) {
      results.push(modelResult(model, [], { message: `${entry.label} cannot run in this browser.`, code: "unsupported_device" }));
      continue;
    }
    const done: EvalScenarioResult[] = [];
    let failed: { message: string; code?: string } | undefined;
    for (const [generation, group] of byGeneration(scenarios)) {
      const adapter = createLocalAdapter({
        id: `eval-${entry.id}`,
        catalog: { models: [entry], model: entry.id, rememberModel: false },
        worker: { host, ...(options.baseUrl !== undefined && { baseUrl: options.baseUrl }), ...(options.threads !== undefined && { threads: options.threads }) },
        // The constraint's repairs are part of the report (one pass over the logits per token in a call).
        generation: { ...generation, reportRepairs: true },
      });
      try {
        await adapter.prepare(signal);
      } catch (error) {
        failed = errorOf(error);
        break;
      }
      done.push(...(await runAll(adapter, model, group, generation)));
    }
    results.push(modelResult(model, done, failed));
  }
  return { capabilities, results };
}
