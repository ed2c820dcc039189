/**
 * What the cloud adapter tells people, in one place: each message says what
 * went wrong and what to do next. The wording of the first two and of
 * `sessionFailed` is the one the createCloudAdapter reference quotes.
 */
export const CLOUD_MESSAGES = Object.freeze({
  notConfigured: "Chat isn't configured on this site.",
  unreachable: "Couldn't reach the assistant. Check your connection and try again.",
  sessionFailed: "Couldn't start a chat session. Reload the page and try again.",
  busy: "The assistant is busy. Try again in a few minutes.",
  dailyLimit: "The assistant has reached its limit for today. Try again tomorrow.",
  tooLong: "This conversation is too long for the assistant. Start a new chat and try again.",
  badRequest: "The assistant couldn't read this request. Start a new chat and try again.",
  forbidden: "The assistant refused requests from this page. Reload the page and try again.",
  cutOff: "The assistant's reply was cut off. Check your connection and try again.",
  unreadable: "The assistant sent a reply this page couldn't read. Try again, or reload the page.",
  /** A 429 with a usable Retry-After. */
  rateLimited: (seconds: number | undefined) =>
    seconds === undefined
      ? "You're sending messages too quickly. Wait a minute and try again."
      : `You're sending messages too quickly. Wait ${seconds === 1 ? "a second" : `${seconds} seconds`} and try again.`,
  /** The page's Content-Security-Policy refused the request to the endpoint's origin. */
  blockedByPolicy: (origin: string) => `This site's Content-Security-Policy blocks the chat's connection to ${origin}: the site must add ${origin} to connect-src.`,
  /** Any other HTTP failure. */
  failed: (status: number) => `The assistant failed (HTTP ${status}). Try again in a moment.`,
});
