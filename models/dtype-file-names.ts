/**
 * The ONNX file transformers.js loads for a dtype (its suffix table), for the
 * dtypes the project's own test models come in: what their catalog entries
 * (`catalog-test-models.ts`) list and `test-models/` writes.
 */
export const DTYPE_FILE_NAMES = {
  fp32: "model.onnx",
  q8: "model_quantized.onnx",
  q4: "model_q4.onnx",
} as const;
