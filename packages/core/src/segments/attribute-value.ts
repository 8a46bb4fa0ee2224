/**
 * The value a condition on `name` reads: the attribute stored under that exact name (how the API
 * and imports store every attribute, dots included) or, when there is none, the nested path the
 * dots spell (`plan.tier` → attributes.plan.tier). The compiler reads it the same way with
 * `coalesce(attributes -> name, attributes #> path)`. Undefined when absent.
 */
export function attributeValue(attributes: Readonly<Record<string, unknown>>, name: string): unknown {
  if (Object.hasOwn(attributes, name)) return attributes[name];
  let current: unknown = attributes;
  for (const key of attributePath(name)) {
    if (Array.isArray(current) && /^\d+$/.test(key)) current = current[Number(key)];
    else if (typeof current === "object" && current !== null && !Array.isArray(current) && Object.hasOwn(current, key)) current = (current as Record<string, unknown>)[key];
    else return undefined;
  }
  return current;
}

/** The keys a dotted attribute name walks through. */
export function attributePath(name: string): string[] {
  return name.split(".");
}
