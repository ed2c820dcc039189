/**
 * What an agent id must match: 1 to 64 of `a-z A-Z 0-9 _ . -`. The browser
 * sends the id with each request and the server looks the agent up by it.
 */
export const AGENT_ID = /^[a-zA-Z0-9_.-]{1,64}$/;

/** The prefix of a delegate tool's name: `delegate_to_<id>`. */
export const DELEGATE_PREFIX = "delegate_to_" as const;

/** The name of the tool that hands a task to the sub-agent `id`: `"delegate_to_<id>"`. */
export function delegateToolName(id: string): string {
  return `${DELEGATE_PREFIX}${id}`;
}

/** True for a `delegate_to_<id>` tool name, where `<id>` matches {@link AGENT_ID}. */
export function isDelegateTool(name: string): boolean {
  return name.startsWith(DELEGATE_PREFIX) && AGENT_ID.test(name.slice(DELEGATE_PREFIX.length));
}
