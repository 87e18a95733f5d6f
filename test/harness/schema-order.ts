/** A structured-output reply in the order a real server writes it: constrained decoding (OpenAI's
 * strict json_schema, llama.cpp and Ollama grammars) emits an object's properties in the order
 * the schema lists them, whatever order a scripted responder built its object in. Keys the
 * schema does not list (a responder's deliberate slips) follow in their own order. */
export function inSchemaOrder(value: unknown, schema: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const props = schema && typeof schema === 'object' ? (schema as { properties?: unknown }).properties : undefined;
  if (!props || typeof props !== 'object') return value;
  const rec = value as Record<string, unknown>;
  const listed = Object.keys(props).filter((k) => k in rec);
  const rest = Object.keys(rec).filter((k) => !listed.includes(k));
  return Object.fromEntries([...listed, ...rest].map((k) => [k, rec[k]]));
}
