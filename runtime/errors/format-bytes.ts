// In runtime/errors, the folder every layer imports, so that the worker's error sentences
// (engine-error-messages.ts) and the widget's download card say a size alike.
const MB = 1_000_000;
const GB = 1_000_000_000;

/** A download size for people: `"350 MB"`, `"1.2 GB"` (decimal units, as disks and browsers report them). */
export function formatBytes(bytes: number): string {
  if (bytes >= GB) return `${(bytes / GB).toLocaleString("en-US", { maximumFractionDigits: 1 })} GB`;
  if (bytes >= MB) return `${Math.round(bytes / MB).toLocaleString("en-US")} MB`;
  return `${Math.max(1, Math.round(bytes / 1000)).toLocaleString("en-US")} KB`;
}

/** Download progress in megabytes: `"147 of 350 MB"`; in kilobytes under 1 MB (`"230 of 482 KB"`), never `"0 of 0 MB"`. */
export function formatDownloaded(progress: number, totalBytes: number): string {
  if (totalBytes < MB) {
    const totalKb = Math.max(1, Math.round(totalBytes / 1000));
    return `${Math.min(totalKb, Math.round((progress * totalBytes) / 1000))} of ${totalKb} KB`;
  }
  const total = Math.round(totalBytes / MB);
  const done = Math.min(total, Math.round((progress * totalBytes) / MB));
  return `${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} MB`;
}
