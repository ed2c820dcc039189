/** Text made safe inside HTML or SVG markup, attributes included: the evals page builds its tables and chart as strings. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
