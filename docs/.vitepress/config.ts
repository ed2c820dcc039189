import { defineConfig } from "vitepress";

// The site is docs/ and nothing else: `vitepress dev docs` roots it there, and
// srcExclude keeps stray Markdown (a README in a fixture folder, say) out of the
// page list. Source files elsewhere in the repository are never scanned.
export default defineConfig({
  title: "WebMCP Agents",
  description: "An on-device-first browser agent runtime: a chat agent that calls a page's WebMCP tools.",
  lang: "en",
  cleanUrls: true,
  lastUpdated: false,
  srcExclude: ["**/README.md", "**/node_modules/**"],
  head: [["link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" }]],
  // GitHub's high-contrast themes: the default ones' colours fall under WCAG AA's
  // 4.5:1 on the code block's background (axe: color-contrast).
  markdown: { theme: { light: "github-light-high-contrast", dark: "github-dark-high-contrast" } },
  themeConfig: {
    search: { provider: "local" },
    outline: { level: [2, 3], label: "On this page" },
    nav: [
      { text: "Guides", link: "/guide/define-an-agent" },
      { text: "API reference", link: "/api/adapter-types" },
    ],
    sidebar: [
      {
        text: "Guides",
        items: [
          { text: "Introduction", link: "/" },
          { text: "Define an agent", link: "/guide/define-an-agent" },
          { text: "Call an agent", link: "/guide/call-an-agent" },
          { text: "Run on the device", link: "/guide/run-on-the-device" },
          { text: "Cloud fallback and /api/chat", link: "/guide/cloud-and-api-chat" },
          { text: "Tool policy and safety", link: "/guide/tool-policy" },
          { text: "Labels and languages", link: "/guide/labels" },
          { text: "Content-Security-Policy", link: "/guide/content-security-policy" },
          { text: "Bench", link: "/guide/bench" },
          { text: "Troubleshooting", link: "/guide/troubleshooting" },
        ],
      },
      {
        text: "API reference",
        items: [
          { text: "Adapter types", link: "/api/adapter-types" },
          { text: "createCloudAdapter", link: "/api/create-cloud-adapter" },
          { text: "createLocalAdapter", link: "/api/create-local-adapter" },
          { text: "defineModel and the catalogs", link: "/api/define-model" },
          { text: "createFallbackAdapter", link: "/api/create-fallback-adapter" },
          { text: "createBuiltInAdapter", link: "/api/create-built-in-adapter" },
          { text: "useAgentSession", link: "/api/use-agent-session" },
          { text: "useAgentChat", link: "/api/use-agent-chat" },
          { text: "createAgentSession", link: "/api/create-agent-session" },
          { text: "&lt;AgentChat&gt;", link: "/api/agent-chat" },
          { text: "&lt;AgentCursor&gt;", link: "/api/agent-cursor" },
          { text: "&lt;web-agents-chat&gt;", link: "/api/web-agents-chat" },
          { text: "useWebAgent", link: "/api/use-web-agent" },
          { text: "useWebTool", link: "/api/use-web-tool" },
          { text: "WebAgentsProvider", link: "/api/web-agents-provider" },
          { text: "defineWebAgent", link: "/api/define-web-agent" },
          { text: "defineWebTool", link: "/api/define-web-tool" },
          { text: "registerWebTool", link: "/api/register-web-tool" },
          { text: "callModelContextTool", link: "/api/call-model-context-tool" },
          { text: "createChatHandler", link: "/api/create-chat-handler" },
          { text: "Server helpers", link: "/api/server-helpers" },
          { text: "createScriptedAdapter", link: "/api/create-scripted-adapter" },
          { text: "Evaluate your agent", link: "/api/evaluate-agent" },
          { text: "Errors and codes", link: "/api/errors" },
          { text: "All exported names", link: "/api/exported-names" },
        ],
      },
    ],
  },
});
