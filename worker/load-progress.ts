import type { LoadProgress, ModelFile } from "./protocol.js";

const WEIGHTS = /\.onnx(_data(_\d+)?)?$/;

/**
 * transformers.js's `progress_callback` for a load from the cache, as the
 * load's progress from 0.1 to 0.9 (the tokenizer before, the session after).
 * Measured against the weights' size, so that a small file finishing first
 * does not look like most of the load: the catalog's estimate until every
 * weight file has said its real size (an estimate larger than the files left
 * the bar at 86% while the session was created). Reading the files is most
 * of a load; creating the session is the rest, and says nothing: once every
 * byte is read, the stage says so (`starting`) instead of a number that sits
 * still. Reported in steps of half a percent: a file arrives in thousands of
 * chunks.
 */
export function loadProgressReporter(modelFiles: readonly ModelFile[], onProgress: (progress: LoadProgress) => void) {
  const files = new Map<string, { loaded: number; total: number }>();
  const expectedBytes = modelFiles.filter((file) => WEIGHTS.test(file.path)).reduce((total, file) => total + (file.bytes ?? 0), 0);
  const weightFiles = Math.max(1, modelFiles.filter((file) => WEIGHTS.test(file.path)).length);
  let reported = 0.1;
  let starting = false;
  return (info: { status: string; file?: string; loaded?: number; total?: number }): void => {
    if (!info.file) return;
    // "done" closes a file whose last "progress" may not have reached its total.
    const known = files.get(info.file);
    if (info.status === "done" && known) files.set(info.file, { loaded: known.total, total: known.total });
    else if (info.status === "progress" && info.total) files.set(info.file, { loaded: info.loaded ?? 0, total: info.total });
    else return;
    let loaded = 0;
    let seen = 0;
    for (const file of files.values()) {
      loaded += file.loaded;
      seen += file.total;
    }
    const allWeightsSeen = [...files.keys()].filter((name) => WEIGHTS.test(name)).length >= weightFiles;
    const total = allWeightsSeen ? seen : Math.max(seen, expectedBytes);
    const progress = 0.1 + 0.8 * Math.min(1, loaded / total);
    if (loaded >= total && allWeightsSeen) {
      if (!starting) onProgress({ progress: 0.9, stage: "starting" });
      starting = true;
    } else if (progress - reported >= 0.005) {
      reported = progress;
      onProgress({ progress });
    }
  };
}
