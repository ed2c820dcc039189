// The adapter contract names the tools it hands a model; the core, which
// reads them from the page, declares the type (the core imports nothing above it).
export type { ToolDescriptor } from "../core/tool-descriptor.js";
