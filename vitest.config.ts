import { defineConfig } from "vitest/config";
import { packageAliases } from "./examples/package-aliases.js";

export default defineConfig({
  // Tests import the examples, which import the package by name, as a site does.
  resolve: { alias: packageAliases() },
  test: {
    include: ["{runtime,worker,models,widget,examples,bench}/**/*.test.{ts,tsx}"],
    environment: "node",
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    // Browser tests launch headless Chromium and a Vite server each; two cores
    // bear two of them at once at most.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
