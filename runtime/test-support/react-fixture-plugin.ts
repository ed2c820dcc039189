import type { Plugin } from "vite";

/** JSX with React's automatic runtime, and React (CommonJS) pre-bundled for the dev server: what a React fixture page needs. */
export const reactFixture: Plugin = {
  name: "react-fixture",
  config: () => ({
    oxc: { jsx: { runtime: "automatic", importSource: "react" } },
    optimizeDeps: { include: ["react", "react/jsx-runtime", "react/jsx-dev-runtime", "react-dom", "react-dom/client"] },
  }),
};
