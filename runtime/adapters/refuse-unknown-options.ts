/**
 * Throws a TypeError for an option name an adapter factory does not take,
 * naming where a moved one went (or the names it takes) and its docs page:
 * a plain-JavaScript caller's misspelt or old option is never silently dropped.
 */
export function refuseUnknownOptions(
  factory: string,
  options: object,
  known: ReadonlySet<string>,
  moved: Readonly<Record<string, string>>,
  docsPage: string,
): void {
  for (const name of Object.keys(options)) {
    if (known.has(name) || (options as Record<string, unknown>)[name] === undefined) continue;
    const instead = moved[name] ? `pass ${moved[name]} instead` : `it takes ${[...known].join(", ")}`;
    throw new TypeError(`${factory} does not take the option "${name}": ${instead} (see ${docsPage}).`);
  }
}
