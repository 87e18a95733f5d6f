import { describe, expect, it } from 'vitest';
import { contextOrigins, gateView, networkSafe, toWebQuery, unionOrigins } from './flow';
import type { RunInput } from './run';

const page = { url: 'https://bank.example/account', title: 'Account security - Example Bank', text: 'Your recovery code is 739-114.', surrounding: 'Your recovery code is 739-114.', selection: 'wire transfer limits' };

describe('information flow (lib/core/flow.ts)', () => {
  it('a web query is made only from typed, selected or web text', () => {
    expect(toWebQuery('Marie Curie Nobel', ['typed', 'web'])).toBe('Marie Curie Nobel');
    expect(toWebQuery('Marie Curie', ['selected'])).toBe('Marie Curie');
    expect(toWebQuery('Curie 739-114', ['typed', 'tab'])).toBeUndefined();
    expect(toWebQuery('Curie', ['page'])).toBeUndefined();
    expect(toWebQuery('   ', ['typed'])).toBeUndefined();
    expect(networkSafe(unionOrigins(['typed'], ['web']))).toBe(true);
  });

  it('the origins of what calls after the gate see: the page, the tabs and earlier answers by what they could read', () => {
    const input: RunInput = { text: 'What is the limit?', page };
    expect(contextOrigins(input, 'ask', { tabs: false, web: true })).toEqual(['typed', 'selected', 'page', 'web']);
    expect(contextOrigins({ text: 'Q?' }, 'ask', { tabs: false, web: true })).toEqual(['typed', 'web']);
    expect(contextOrigins({ text: 'Q?' }, 'ask', { tabs: true, web: true })).toEqual(['typed', 'tab', 'web']);
    // An earlier answer written after reading tabs taints the follow-up's context; one from before
    // origins were kept counts as anything.
    expect(contextOrigins({ text: 'And then?', thread: { id: 't', turns: [{ question: 'Q1', answer: 'A1', answerOrigins: ['typed', 'tab'] }] } }, 'ask', { tabs: false, web: true })).toEqual(['typed', 'tab', 'web']);
    expect(contextOrigins({ text: 'And then?', thread: { id: 't', turns: [{ question: 'Q1', answer: 'A1' }] } }, 'ask', { tabs: false, web: false })).toEqual(['typed', 'page', 'tab', 'web']);
    expect(contextOrigins({ text: 'Paris is in France.', page }, 'verify', { tabs: false, web: true })).toEqual(['selected', 'page', 'web']);
  });

  it('the gate sees the question, the selection and the network-safe part of the conversation, never the page', () => {
    const input: RunInput = {
      text: 'What about the second one?',
      page,
      thread: {
        id: 't',
        turns: [
          { question: 'Who won the 1903 Nobel Prize in Physics?', answer: 'Becquerel and the Curies.', answerOrigins: ['typed', 'web'] },
          { question: 'What does my bank say?', answer: 'Your code is 739-114.', answerOrigins: ['typed', 'page', 'web'] },
          // A rewrite of a run that could read tabs: its question is not network-safe.
          { question: 'What did Project Nightjar acquire?', answer: 'Acme.', questionOrigins: ['typed', 'tab'], answerOrigins: ['typed', 'tab'] },
        ],
      },
    };
    const v = gateView(input, 'ask');
    expect(JSON.stringify(v)).not.toMatch(/739|Example Bank|Nightjar|Acme/);
    expect(v).toMatchObject({ text: 'What about the second one?', selection: 'wire transfer limits', confirmed: false });
    expect(v.turns).toEqual([{ question: 'Who won the 1903 Nobel Prize in Physics?', answer: 'Becquerel and the Curies.' }, { question: 'What does my bank say?' }]);
    expect(networkSafe(v.origins)).toBe(true);
  });

  it('a rewrite the user edits and asks keeps the origins of the call that wrote it; only what they typed counts as typed', () => {
    const edited: RunInput = { text: 'What is the limit for 739-114?', asked: 'What is the limit?', origins: ['typed', 'tab'] };
    expect(gateView(edited, 'ask').text).toBe('What is the limit?');
    expect(contextOrigins(edited, 'ask', { tabs: false, web: true })).toContain('tab');
    const clean: RunInput = { text: 'What is the daily limit?', asked: 'What is the limit?', origins: ['typed'] };
    expect(gateView(clean, 'ask')).toMatchObject({ text: 'What is the daily limit?', confirmed: true });
  });
});
