import { describe, expect, it } from 'vitest';
import { causalQuery, fallbackQuery, settledRevision } from './step-query';

describe('fallbackQuery', () => {
  it('takes the step words first, then the question, without stop words or duplicates', () => {
    expect(fallbackQuery('She married Pierre Curie in 1895.', 'Who did Marie Curie marry?')).toBe('married Pierre Curie 1895 Marie marry');
  });
});

describe('causalQuery: what the revisions before a step brought in reaches its query', () => {
  const base = 'married Pierre Curie 1895';
  it('is the planned query while nothing before the step changed', () => {
    expect(causalQuery(base, [])).toBe(base);
    expect(causalQuery(base, [{ draft: 'Marie Curie was born in Krakow.' }])).toBe(base);
  });

  it('adds the words a revision has and its draft had not, the latest revision first, without stop words or words already there', () => {
    const before = [
      { draft: 'Marie Curie was born in Krakow in 1870.', revised: 'Marie Curie was born in Warsaw in 1867.' },
      { draft: 'She studied in Paris.', revised: 'She studied physics at the Sorbonne in Paris.' },
    ];
    expect(causalQuery(base, before)).toBe(`${base} physics Sorbonne Warsaw 1867`);
    // Made again from a query that has them (a resumed run's recorded query): the same query.
    expect(causalQuery(causalQuery(base, before), before)).toBe(causalQuery(base, before));
  });

  it('adds at most eight words', () => {
    const revised = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    expect(causalQuery(base, [{ draft: 'x', revised }])).toBe(`${base} alpha beta gamma delta epsilon zeta eta theta`);
  });
});

describe('settledRevision: the part of a streaming revision the later queries can be made from', () => {
  const draft = 'Marie Curie was born in Krakow and grew up in Poland.';
  it('nothing while the revision repeats the draft, or has brought in a word and not gone on with a drafted one', () => {
    expect(settledRevision(draft, 'Marie Curie was born in ')).toBeUndefined();
    expect(settledRevision(draft, 'Marie Curie was born in Warsaw ')).toBeUndefined();
    // Stop words after the correction say nothing; a word still streaming is not a word yet.
    expect(settledRevision(draft, 'Marie Curie was born in Warsaw and gr')).toBeUndefined();
    expect(settledRevision(draft, 'Marie')).toBeUndefined();
  });

  it('its complete words, once a drafted content word follows the correction', () => {
    expect(settledRevision(draft, 'Marie Curie was born in Warsaw and grew u')).toEqual({ text: 'Marie Curie was born in Warsaw and grew', brought: 'Warsaw' });
    // The later queries made from it are the ones the whole revision gives.
    const whole = 'Marie Curie was born in Warsaw and grew up in Poland.';
    const part = settledRevision(draft, 'Marie Curie was born in Warsaw and grew u')?.text;
    expect(causalQuery('married', [{ draft, revised: part }])).toBe(causalQuery('married', [{ draft, revised: whole }]));
    // A second correction after it: not settled until a drafted word follows it too.
    expect(settledRevision(draft, 'Marie Curie was born in Warsaw and grew up in Russian ')).toBeUndefined();
    expect(settledRevision(draft, 'Marie Curie was born in Warsaw and grew up in Russian Poland ')).toEqual({ text: 'Marie Curie was born in Warsaw and grew up in Russian Poland', brought: 'Warsaw Russian' });
  });
});
