/** The scripted model reads the product's prompts by their marked structure: built by the real
 * prompt builders, every place it looks for is found (a prompt reworded in lib/core/prompt-sections.ts
 * stays readable; one whose structure lost a marker fails here first). */
import { describe, expect, it } from 'vitest';
import { checkMessages, composeMessages, gateMessages, reviseMessages, type ReviseInput } from '../../lib/pipeline/prompts.ts';
import { pageCheckMessages, pageClaimsMessages } from '../../lib/pipeline/page-prompts.ts';
import type { AliasMap } from '../../lib/pipeline/citations.ts';
import { dataBlocks, laterItems, line, listUnder, MARK, markedNumber, positionOf, SECTION, sectionText, stageOf, standing } from './prompt-reader.ts';

const passages = new Map([['P1', { text: 'Marie Curie was born in Warsaw.', title: 'Curie', url: 'https://example.org/curie', origin: 'tab', headingPath: [], start: 0, end: 31 }]]) as unknown as AliasMap;
const user = (m: { content: string }[]) => m.at(-1)?.content ?? '';
const system = (m: { role: string; content: string }[]) => m.filter((x) => x.role === 'system').map((x) => x.content).join('\n\n');

const revise = (o: Partial<ReviseInput>) =>
  reviseMessages({ question: 'Who was Marie Curie?', before: ['She was a physicist.'], position: 2, total: 4, draft: 'She was born in Warsaw.', later: ['She moved to Paris.', 'She won two Nobel Prizes.'], query: 'Curie born', round: 1, finalRound: false, passages, withAnswer: false, ...o });

describe('prompt reader', () => {
  it('reads a revision: question, position, round, draft, the steps before and after, and where it stands', () => {
    const m = revise({ round: 2 });
    expect(line(user(m), SECTION.question)).toBe('Who was Marie Curie?');
    expect(positionOf(user(m), SECTION.currentStep)).toEqual({ at: 2, total: 4, round: 2 });
    expect(line(user(m), SECTION.draft)).toBe('She was born in Warsaw.');
    expect(listUnder(user(m), SECTION.stepsSoFar)).toEqual(['She was a physicist.']);
    expect(laterItems(user(m))).toEqual(['She moved to Paris.', 'She won two Nobel Prizes.']);
    expect(dataBlocks(user(m)).map((b) => b.attrs.id)).toEqual(['P1']);
    expect(standing(system(m))).toEqual({ lastRound: false, lastStep: false, lastClaim: false, allLaterQueries: false });
    const last = revise({ position: 4, later: [], withAnswer: true, finalRound: true });
    expect(standing(system(last))).toEqual({ lastRound: true, lastStep: true, lastClaim: false, allLaterQueries: false });
    // The step after a lean step that changed writes every later step's query.
    const after = revise({ position: 3, later: ['She won two Nobel Prizes.'], rewriteLater: true });
    expect(standing(system(after)).allLaterQueries).toBe(true);
    // A lean prompt shows the next step alone and no count.
    const lean = revise({ lean: true, later: ['She moved to Paris.'] });
    expect(positionOf(user(lean), SECTION.currentStep)).toEqual({ at: 2, round: 1 });
    expect(laterItems(user(lean))).toEqual(['She moved to Paris.']);
  });

  it('reads a claim check, a page check and the page-claims limit', () => {
    const c = checkMessages({ selection: 'Curie was born in Krakow.', before: [], position: 1, total: 2, claim: 'Curie was born in Krakow.', later: ['She won a prize.'], query: 'q', round: 1, finalRound: true, passages, withPassage: true });
    expect(positionOf(user(c), SECTION.currentClaim)).toEqual({ at: 1, total: 2, round: 1 });
    expect(line(user(c), SECTION.claim)).toBe('Curie was born in Krakow.');
    expect(listUnder(user(c), SECTION.laterClaims)).toEqual(['She won a prize.']);
    expect(standing(system(c))).toMatchObject({ lastRound: true, lastClaim: true });
    const p = pageCheckMessages({ claim: 'The tower is 300 m tall.', sentence: 's', title: 't', query: 'q', round: 2, finalRound: true, passages });
    expect(line(user(p), SECTION.claim)).toBe('The tower is 300 m tall.');
    expect(line(user(p), SECTION.searchRound)).toBe('2');
    expect(standing(system(p)).lastRound).toBe(true);
    expect(markedNumber(system(pageClaimsMessages({ text: 'x', title: 't', url: 'https://example.org/', maxClaims: 7 })), MARK.atMost)).toBe(7);
  });

  it('reads the gate question, the compose findings and a stage named in the prompt', () => {
    expect(line(user(gateMessages({ text: 'Who is she?', turns: [] } as unknown as Parameters<typeof gateMessages>[0])), SECTION.question)).toBe('Who is she?');
    const comp = composeMessages('Q?', [{ heading: 'Part one', body: 'Body one.' }], passages);
    expect(sectionText(user(comp), SECTION.findings, [SECTION.citableEvidence])).toBe('## Part one\nBody one.');
    expect(stageOf({ system: `Reply ${MARK.schema('page-check')}:\n{}` })).toBe('page-check');
    expect(stageOf({ stage: 'draft', system: '' })).toBe('draft');
  });
});
