/** What `npm start` tells the example pages (examples-config.ts defines it). */
declare const __WEB_AGENTS_EXAMPLES__: {
  /** Offer the project's test models in the on-device picker (`WEB_AGENTS_TEST_MODELS=1` or `--test-models`). */
  testModels: boolean;
  /** Where the test models are served: `${testModelsBaseUrl}/<id>/resolve/main/<file>`. */
  testModelsBaseUrl: string;
  /** Where the Qwen models come from: the model hub, or `/models/local` with `WEB_AGENTS_MODELS_DIR`. */
  modelsBaseUrl: string;
};
