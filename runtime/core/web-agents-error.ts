// The error base class lives in runtime/errors/, where the worker and the server can import it too.
export { WebAgentsError, type SerializedError } from "../errors/web-agents-error.js";
