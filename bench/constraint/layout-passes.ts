import { dirname } from "node:path";
import { ensureTestModel, scriptedModel } from "../../models/test-models/index.js";
import { testModelSource } from "../../worker/test-fixtures/test-model-source.js";
import { HERMES_LAYOUTS, LAYOUT_TOOLS, XML_LAYOUTS } from "../../worker/tool-call-constraint/test-fixtures/call-layouts.js";
import { TransformersEngine } from "../../worker/transformers-engine.js";
import { median, percentile, type ConstraintCounters } from "./constraint-counters.js";

/** Forward passes and tokens over the calls of one format's layouts. */
export interface LayoutPasses {
  format: "qwen3" | "qwen3.5";
  calls: number;
  passes: number;
  tokens: number;
  /** The constraint's milliseconds per step inside these calls (written right, as a good model writes them). */
  medianStepMs: number;
  p95StepMs: number;
}

/**
 * Jump-forward on calls as real models write them: the scripted models
 * replay each layout the parser reads (worker/tool-call-constraint/test-fixtures/call-layouts.ts),
 * greedy, with the constraint on. Their weightless graph makes the time
 * meaningless; the passes a call takes against its tokens are the figure.
 */
export async function layoutPasses(counters: ConstraintCounters): Promise<LayoutPasses[]> {
  const rows: LayoutPasses[] = [];
  for (const [format, layouts] of [["qwen3", HERMES_LAYOUTS], ["qwen3.5", XML_LAYOUTS]] as const) {
    const folders = await Promise.all(layouts.map((text, index) => ensureTestModel(scriptedModel({ id: `layout-${format === "qwen3" ? "hermes" : "xml"}-${index}`, replies: [text], chatFormat: format }))));
    const engine = new TransformersEngine({ localModelPath: `${dirname(folders[0]!.folder)}/` });
    counters.clear();
    for (const index of layouts.keys()) {
      const model = testModelSource(`layout-${format === "qwen3" ? "hermes" : "xml"}-${index}`, { format });
      await engine.generate({ id: `l${index}`, model, conversationId: `l${format}${index}`, messages: [{ role: "user", content: "Buy socks" }], tools: LAYOUT_TOOLS, temperature: 0, maxNewTokens: 160 }, () => {}, new AbortController().signal);
    }
    const steps = counters.prepareMs.map((prepare, index) => prepare + counters.applyMs[index]!);
    rows.push({
      format,
      calls: counters.calls.length,
      passes: counters.calls.reduce((sum, call) => sum + call.forwardPasses, 0),
      tokens: counters.calls.reduce((sum, call) => sum + call.tokens, 0),
      medianStepMs: median(steps),
      p95StepMs: percentile(steps, 0.95),
    });
  }
  return rows;
}
