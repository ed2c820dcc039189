/**
 * The words a load failure uses when a saved file cannot be read, as opposed
 * to a good copy the engine cannot run (out of memory, an unsupported
 * operator): ONNX Runtime's `ORT_INVALID_PROTOBUF` (ERROR_CODE 7, "protobuf
 * parsing failed") and `ORT_INVALID_GRAPH` (10) for a truncated or altered
 * `.onnx`, external data that ends early, and a JSON file (config,
 * tokenizer) that does not parse.
 */
const DAMAGE = [
  /protobuf/i,
  /ERROR_CODE:\s*(7|10)\b/,
  /external data/i,
  /out of bounds|exceeds file size|data length mismatch/i,
  /\bJSON\b/,
  /Unexpected (token|end of|non-whitespace)/i,
  /Unterminated string/i,
];

const messagesOf = (error: unknown): string[] => {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (typeof current === "string") messages.push(current);
    else if (typeof current === "object") {
      const record = current as { message?: unknown; detail?: unknown; cause?: unknown };
      if (typeof record.message === "string") messages.push(record.message);
      if (typeof record.detail === "string") messages.push(record.detail);
      current = record.cause;
      continue;
    }
    break;
  }
  return messages;
};

/**
 * Whether a failed load of a cached model says the saved copy is damaged (so
 * removing it and downloading again is the fix), from the error's message,
 * `detail` and causes.
 */
export function isDamagedCopyError(error: unknown): boolean {
  return messagesOf(error).some((message) => DAMAGE.some((pattern) => pattern.test(message)));
}
