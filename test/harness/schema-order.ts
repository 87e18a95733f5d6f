/** A structured-output reply in the order a real server writes it: constrained decoding (OpenAI's
 * strict json_schema, llama.cpp and Ollama grammars) emits an object's properties in the order
 * the schema lists them, whatever order a scripted responder built its object in. Keys the
 * schema does not list (a responder's deliberate slips) follow in their own order. */
export function inSchemaOrder(value: unknown, schema: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const s = schema && typeof schema === 'object' ? (schema as { properties?: Record<string, unknown>; items?: unknown }) : undefined;
  // Nested objects (a list of claims, of citations) are written in their schema's order too.
  if (Array.isArray(value)) return s?.items ? value.map((v) => inSchemaOrder(v, s.items)) : value;
  const props = s?.properties;
  if (!props || typeof props !== 'object') return value;
  const rec = value as Record<string, unknown>;
  const listed = Object.keys(props).filter((k) => k in rec);
  const rest = Object.keys(rec).filter((k) => !listed.includes(k));
  return Object.fromEntries([...listed, ...rest].map((k) => [k, k in props ? inSchemaOrder(rec[k], props[k]) : rec[k]]));
}
