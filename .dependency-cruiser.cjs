/**
 * The layer rules of ARCHITECTURE.md ("Layers and the arrows between them"),
 * checked by `runtime/layer-rules.test.ts` (part of `npm test`):
 *
 *   npx depcruise --config .dependency-cruiser.cjs runtime widget worker models examples
 *
 * Tests, test fixtures, test support and the test models are not product code
 * and are left out (`options.exclude`). Type-only imports are seen (they are
 * how the layers share their contract) and told apart from value imports.
 */

/**
 * Files that are only types shared across layers: the contracts. Importing
 * one type-only couples no code. The runtime's: the adapter contract
 * (session/) and the page tool's shapes (core/).
 */
const RUNTIME_CONTRACT = [
  "^runtime/session/(agent-adapter|agent-message|agent-stream-part|step-part|tool-call-state|tool-descriptor|session-error)[.]ts$",
  "^runtime/core/(json-schema|tool-output|tool-descriptor|standard-schema)[.]ts$",
];
/** The engine's: worker/protocol.ts, the EngineHost contract the worker, models/ and the local adapter share. */
const ENGINE_CONTRACT = ["^worker/protocol[.]ts$"];

/**
 * The core's files that touch no DOM and no page state: plain data, schema
 * conversion, and the error class. The server and the agent entry may use
 * these and no other core file.
 */
const PLAIN_CORE = "^runtime/core/(define-web-tool|standard-schema|to-input-json-schema|check-schema-shape|json-schema|tool-output|tool-descriptor|tool-error-output|untrusted-content|web-agents-error)[.]ts$";

/**
 * How a tool result says it is untrusted content (its `_meta` mark): part of
 * the result's contract, read by every prompt builder, models/'s included.
 */
const RESULT_MARKS = "^runtime/core/untrusted-content[.]ts$";

const TYPE_ONLY = ["type-only"];

/** The numbers that bound a conversation (LIMITS): plain data every layer applies alike, the server included. */
const SESSION_LIMITS = "^runtime/session/limits[.]ts$";

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "runtime-not-to-widget",
      comment: "runtime/ is the framework-agnostic layer: it never imports the React binding.",
      severity: "error",
      from: { path: "^runtime/" },
      to: { path: "^widget/" },
    },
    {
      name: "no-react-below-widget",
      comment: "Only widget/ (and the examples) load React; runtime/, worker/ and models/ run on pages without it.",
      severity: "error",
      from: { path: "^(runtime|worker|models)/" },
      to: { path: "node_modules/(react|react-dom|scheduler)/" },
    },
    {
      name: "core-imports-core-and-errors",
      comment: "runtime/core is the bottom of the runtime: it imports only runtime/core, runtime/errors and npm packages.",
      severity: "error",
      from: { path: "^runtime/core/" },
      to: { pathNot: ["^runtime/(core|errors)/", "node_modules/"] },
    },
    {
      name: "errors-import-nothing",
      comment: "runtime/errors is shared by every layer, the worker included: it imports nothing of ours.",
      severity: "error",
      from: { path: "^runtime/errors/" },
      to: { pathNot: ["^runtime/errors/", "node_modules/"] },
    },
    {
      name: "agent-imports-plain-data",
      comment:
        "runtime/agent is imported by servers and build configs: at runtime it uses only agent/ and the plain core; " +
        "the session loop only through the one dynamic import behind agent.invoke (a browser call).",
      severity: "error",
      from: { path: "^runtime/agent/" },
      to: {
        pathNot: ["^runtime/agent/", PLAIN_CORE, "node_modules/"],
        dependencyTypesNot: [...TYPE_ONLY, "dynamic-import"],
      },
    },
    {
      name: "agent-dynamic-import-only-the-loop",
      severity: "error",
      from: { path: "^runtime/agent/" },
      to: { dependencyTypes: ["dynamic-import"], pathNot: "^runtime/session/invoke-web-agent[.]ts$" },
    },
    {
      name: "plain-core-stays-plain",
      comment: "The plain core files (PLAIN_CORE) import only each other and runtime/errors, so the server never reaches the DOM through them.",
      severity: "error",
      from: { path: PLAIN_CORE },
      to: { pathNot: [PLAIN_CORE, "^runtime/errors/", "node_modules/"], dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "server-imports-no-browser-code",
      comment:
        "runtime/server runs on Node and edge runtimes: at runtime it uses server/, the agent entry, runtime/errors and the plain core; " +
        "from the session, the core and everything else only types.",
      severity: "error",
      from: { path: "^runtime/server/" },
      to: {
        pathNot: ["^runtime/(server|agent|errors)/", PLAIN_CORE, SESSION_LIMITS, "node_modules/"],
        dependencyTypesNot: [...TYPE_ONLY, "core"],
      },
    },
    {
      name: "server-types-from-contracts",
      comment: "Even type-only, the server names only contract files, the agent entry and its own: no widget, worker, adapters.",
      severity: "error",
      from: { path: "^runtime/server/" },
      to: { dependencyTypes: TYPE_ONLY, dependencyTypesNot: ["core"], pathNot: ["^runtime/(server|agent|errors)/", PLAIN_CORE, ...RUNTIME_CONTRACT, "node_modules/"] },
    },
    {
      name: "server-no-node-modules-at-runtime",
      comment: "Edge runtimes import runtime/server: it loads no Node built-in at runtime (types are fine; redis only through a dynamic import).",
      severity: "error",
      from: { path: "^runtime/server/" },
      to: { dependencyTypes: ["core"], dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "worker-not-to-widget-or-runtime",
      comment:
        "The worker runs the engines in its own thread: it imports worker/, models/ (the formats it runs), runtime/errors, " +
        "and from the rest of the runtime only contract types.",
      severity: "error",
      from: { path: "^worker/" },
      to: { path: "^(widget|runtime)/", pathNot: ["^runtime/errors/"], dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "worker-types-from-contracts",
      severity: "error",
      from: { path: "^worker/" },
      to: { path: "^(widget|runtime)/", pathNot: ["^runtime/errors/", ...RUNTIME_CONTRACT], dependencyTypes: TYPE_ONLY },
    },
    {
      name: "models-not-to-worker",
      comment: "models/ is data and pure functions over it; from the worker it names only the protocol's types (the contract both share).",
      severity: "error",
      from: { path: "^models/" },
      to: { path: "^worker/", pathNot: ENGINE_CONTRACT },
    },
    {
      name: "models-not-to-runtime-code",
      comment: "models/ uses runtime/errors, the runtime's contract types and the result marks; no session, adapter, core or widget code.",
      severity: "error",
      from: { path: "^models/" },
      to: { path: "^(widget|runtime)/", pathNot: ["^runtime/errors/", RESULT_MARKS, ...RUNTIME_CONTRACT] },
    },
    {
      name: "models-contract-types-only",
      severity: "error",
      from: { path: "^models/" },
      to: { path: [...RUNTIME_CONTRACT, ...ENGINE_CONTRACT], dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "no-cycles",
      comment: "No import cycle through value imports (cycles made only of type-only imports cost nothing at runtime).",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: TYPE_ONLY } },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: {},
      // Vite's ?url imports (ONNX Runtime's files in the worker) are resolved by Vite, not here.
      to: { couldNotResolve: true, pathNot: "[?]url$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: {
      path: [
        "[.]test[.]tsx?$",
        "(^|/)test-(fixtures|support)/",
        "^models/test-models/",
        "[.]d[.]ts$",
      ],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    skipAnalysisNotInRules: true,
  },
};
