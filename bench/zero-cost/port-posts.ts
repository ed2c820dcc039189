/**
 * Counts what the worker posts on MessagePorts, `null` aside (worker/next-task.ts
 * yields with one a token): the events' messages to the page, to show they
 * are coalesced. Installed by zero-cost-worker.ts only.
 */
export const portPosts = { count: 0 };

export function countPortPosts(): void {
  const post = MessagePort.prototype.postMessage as (this: MessagePort, ...args: unknown[]) => void;
  MessagePort.prototype.postMessage = function (this: MessagePort, ...args: unknown[]) {
    if (args[0] !== null) portPosts.count++;
    post.apply(this, args);
  } as typeof MessagePort.prototype.postMessage;
}
