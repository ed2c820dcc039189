/**
 * The layer rules of ARCHITECTURE.md ("Layers and the arrows between them"),
 * checked by `runtime/layer-rules.test.ts` (part of `npm test`):
 *
 *   npx depcruise --config .dependency-cruiser.cjs runtime widget worker models examples
 *
 * Test files are left out (`options.exclude`). Test fixtures, test support and
 * the test models are seen, so that product code importing them fails
 * (`product-not-to-test-code`), and are exempt from the layer rules
 * (`product()`). Type-only imports are seen (they are how the layers share
 * their contract) and told apart from value imports. A planted violation of
 * each rule is shown failing in `runtime/layer-rules.test.ts`.
 */

/** Test fixtures, test support and the project's test models: test code outside `.test.ts` files. */
const TEST_CODE = "(^|/)test-(fixtures|support|models)/";

/** Product files under `path`: test code there is not held to the layer rules. */
const product = (path) => ({ path, pathNot: TEST_CODE });

/**
 * Files that are only types shared across layers: the contracts. Importing
 * one type-only couples no code. The runtime's: the adapter contract
 * (session/) and the page tool's shapes (core/).
 */
const RUNTIME_CONTRACT = [
  "^runtime/session/(agent-adapter|agent-message|agent-stream-part|step-part|tool-call-state|tool-descriptor|session-error)[.]ts$",
  "^runtime/core/(json-schema|tool-output|tool-descriptor|standard-schema)[.]ts$",
];
/**
 * The core's files that touch no DOM and no page state: plain data, schema
 * conversion, and the error class. The server and the agent entry may use
 * these and no other core file.
 */
const PLAIN_CORE = "^runtime/core/(define-web-tool|standard-schema|to-input-json-schema|check-schema-shape|json-schema|tool-output|tool-descriptor|tool-error-output|tool-output-text|untrusted-content|web-agents-error)[.]ts$";

/**
 * How a tool result reads as text, and how it says it is untrusted content
 * (its `_meta` mark and the wording around it): part of the result's
 * contract, read by every prompt builder, models/'s included.
 */
const RESULT_MARKS = "^runtime/core/(untrusted-content|tool-output-text)[.]ts$";

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
      from: product("^runtime/"),
      to: { path: "^widget/" },
    },
    {
      name: "no-react-below-widget",
      comment: "Only widget/ (and the examples) load React; runtime/, worker/ and models/ run on pages without it.",
      severity: "error",
      from: product("^(runtime|worker|models)/"),
      to: { path: "node_modules/(react|react-dom|scheduler)/" },
    },
    {
      name: "core-imports-core-and-errors",
      comment: "runtime/core is the bottom of the runtime: it imports only runtime/core, runtime/errors and npm packages.",
      severity: "error",
      from: product("^runtime/core/"),
      to: { pathNot: ["^runtime/(core|errors)/", "node_modules/"] },
    },
    {
      name: "errors-import-nothing",
      comment: "runtime/errors is shared by every layer, the worker included: it imports nothing of ours.",
      severity: "error",
      from: product("^runtime/errors/"),
      to: { pathNot: ["^runtime/errors/", "node_modules/"] },
    },
    {
      name: "agent-imports-plain-data",
      comment:
        "runtime/agent is imported by servers and build configs: at runtime it uses only agent/ and the plain core; " +
        "the session loop only through the one dynamic import behind agent.invoke (a browser call).",
      severity: "error",
      from: product("^runtime/agent/"),
      to: {
        pathNot: ["^runtime/agent/", PLAIN_CORE, "node_modules/"],
        dependencyTypesNot: [...TYPE_ONLY, "dynamic-import"],
      },
    },
    {
      name: "agent-dynamic-import-only-the-loop",
      comment: "agent.invoke loads the session's loop and, when given no adapter, the shared cloud adapter (the seeds' default): nothing else.",
      severity: "error",
      from: product("^runtime/agent/"),
      to: { dependencyTypes: ["dynamic-import"], pathNot: ["^runtime/session/invoke-web-agent[.]ts$", "^runtime/adapters/cloud/shared-cloud-adapter[.]ts$"] },
    },
    {
      name: "session-knows-no-adapter-engine-or-model",
      comment:
        "runtime/session runs the loop over the AgentAdapter contract: it imports session/, agent/, core/ and errors/, " +
        "never an adapter, the worker, models/ or the widget (not even their types).",
      severity: "error",
      from: product("^runtime/session/"),
      to: { pathNot: ["^runtime/(session|agent|core|errors)/", "node_modules/"] },
    },
    {
      name: "adapters-share-only-the-contract",
      comment:
        "Each runtime/adapters/* folder is one adapter: besides its own folder it imports the adapters' shared files " +
        "(runtime/adapters/*.ts), the session, core, errors, and the server's wire types; no other adapter's folder.",
      severity: "error",
      from: product("^runtime/adapters/([^/]+)/"),
      to: { path: "^runtime/adapters/([^/]+)/", pathNot: "^runtime/adapters/$1/" },
    },
    {
      name: "cloud-adapter-runs-no-model",
      comment: "The cloud adapter only talks to /api/chat: it never imports the worker, models/ or the widget.",
      severity: "error",
      from: product("^runtime/adapters/cloud/"),
      to: { path: "^(worker|models|widget)/" },
    },
    {
      name: "adapters-below-the-widget",
      comment: "Adapters (and their shared files) know nothing of React: runtime/adapters never imports widget/, and only the local adapter reaches the worker and models/.",
      severity: "error",
      from: product("^runtime/adapters/(?!local/)"),
      to: { path: "^(worker|models|widget)/" },
    },
    {
      name: "adapters-shared-files-know-no-adapter",
      comment: "runtime/adapters/*.ts (the step loop, transcript, request messages) serve every adapter: they import none.",
      severity: "error",
      from: product("^runtime/adapters/[^/]+[.]tsx?$"),
      to: { path: "^runtime/adapters/[^/]+/" },
    },
    {
      name: "widget-imports-the-runtime-only",
      comment: "widget/ is the React binding over runtime/: it imports widget/, runtime/ and npm packages, never the worker or models/ directly.",
      severity: "error",
      from: product("^widget/"),
      to: { pathNot: ["^(widget|runtime)/", "node_modules/"] },
    },
    {
      name: "product-not-to-test-code",
      comment:
        "Test fixtures, test support and the test models are test code: no product file imports them (a site would ship them). " +
        "The examples are demo sites on the scripted test models, outside the package.",
      severity: "error",
      from: { pathNot: [TEST_CODE, "^(bench|fuzz|examples)/"] },
      to: { path: TEST_CODE },
    },
    {
      name: "plain-core-stays-plain",
      comment: "The plain core files (PLAIN_CORE) import only each other and runtime/errors, so the server never reaches the DOM through them.",
      severity: "error",
      from: product(PLAIN_CORE),
      to: { pathNot: [PLAIN_CORE, "^runtime/errors/", "node_modules/"], dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "server-imports-no-browser-code",
      comment:
        "runtime/server runs on Node and edge runtimes: at runtime it uses server/, the agent entry, runtime/errors and the plain core; " +
        "from the session, the core and everything else only types.",
      severity: "error",
      from: product("^runtime/server/"),
      to: {
        pathNot: ["^runtime/(server|agent|errors)/", PLAIN_CORE, SESSION_LIMITS, "node_modules/"],
        dependencyTypesNot: [...TYPE_ONLY, "core"],
      },
    },
    {
      name: "server-types-from-contracts",
      comment: "Even type-only, the server names only contract files, the agent entry and its own: no widget, worker, adapters.",
      severity: "error",
      from: product("^runtime/server/"),
      to: { dependencyTypes: TYPE_ONLY, dependencyTypesNot: ["core"], pathNot: ["^runtime/(server|agent|errors)/", PLAIN_CORE, ...RUNTIME_CONTRACT, "node_modules/"] },
    },
    {
      name: "server-no-node-modules-at-runtime",
      comment: "Edge runtimes import runtime/server: it loads no Node built-in at runtime (types are fine; redis only through a dynamic import).",
      severity: "error",
      from: product("^runtime/server/"),
      to: { dependencyTypes: ["core"], dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "worker-not-to-widget-or-runtime",
      comment:
        "The worker runs the engines in its own thread: it imports worker/, models/ (the formats it runs), runtime/errors, " +
        "and from the rest of the runtime only contract types.",
      severity: "error",
      from: product("^worker/"),
      to: { path: "^(widget|runtime)/", pathNot: ["^runtime/errors/"], dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: "worker-types-from-contracts",
      severity: "error",
      from: product("^worker/"),
      to: { path: "^(widget|runtime)/", pathNot: ["^runtime/errors/", ...RUNTIME_CONTRACT], dependencyTypes: TYPE_ONLY },
    },
    {
      name: "models-not-to-worker",
      comment:
        "models/ is data and pure functions over it, below the worker: the types both name (ModelSource, DeviceCapabilities, " +
        "the template messages) live in models/ and worker/protocol.ts re-exports them, so the arrow runs one way.",
      severity: "error",
      from: product("^models/"),
      to: { path: "^worker/" },
    },
    {
      name: "models-not-to-runtime-code",
      comment: "models/ uses runtime/errors, the runtime's contract types and the result marks; no session, adapter, core or widget code.",
      severity: "error",
      from: product("^models/"),
      to: { path: "^(widget|runtime)/", pathNot: ["^runtime/errors/", RESULT_MARKS, ...RUNTIME_CONTRACT] },
    },
    {
      name: "models-contract-types-only",
      severity: "error",
      from: product("^models/"),
      to: { path: RUNTIME_CONTRACT, dependencyTypesNot: TYPE_ONLY },
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
      comment: "Test fixtures may name files their tests write first.",
      severity: "error",
      from: { pathNot: TEST_CODE },
      // Vite's ?url imports (ONNX Runtime's files in the worker) are resolved by Vite, not here.
      to: { couldNotResolve: true, pathNot: "[?]url$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: {
      path: ["[.]test[.]tsx?$", "[.]d[.]ts$"],
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
