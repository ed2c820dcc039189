// The agents a site registers: plain data, imported by its pages and by its
// /api/chat route alike. The browser sends only an agent's id. These are the
// Field Store's (examples/field-store/agents.ts): `shopper`, which delegates
// to `orders`.
export { agents, orders, shopper } from "../field-store/agents.js";
