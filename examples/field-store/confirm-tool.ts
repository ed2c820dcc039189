/**
 * The site's answer for calls the tool policy holds (`confirmTool` on
 * `<AgentChat>` and `useWebAgent`). place_order is annotated
 * `consequentialHint: true`, so by default the chat would ask Allow / Don't
 * allow first; but it already waits for the person's own click on Place
 * order (`waitForClick`), so asking before would make the person confirm
 * twice. `true` lets it run to its own confirmation; any other held call
 * (`undefined`) is still asked in the chat, or declined where there is none.
 */
export const confirmTool = ({ tool }: { tool: string }): true | undefined => tool === "place_order" || undefined;
