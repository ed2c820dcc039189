/** `@webmcp-agents/chat`'s version, as package.json says (runtime-version.test.ts keeps the two equal). */
export const RUNTIME_VERSION = "0.1.0";
