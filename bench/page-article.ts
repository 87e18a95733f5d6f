/** Part 6's article: a news-style page about the fixture encyclopedia's subjects, with claims the
 * open tabs (the fixture articles) confirm, correct or refute, and sentences that are not claims
 * (an opinion, a question, a prediction). The first 12 claims are the measured page; all 20 make
 * the longer page of the budget sweep. Each claim is scripted the way a model that reads the page
 * would write it: self-contained, with its page sentence, a check-worthiness and a search query;
 * its check cites the fixture passage holding `phrase`. The queries name the subject in the
 * language of the fixture article about it, as a model would search for it. */
import type { ScenarioClaim } from '../test/harness/pipeline-responder.ts';

interface ArticleClaim extends ScenarioClaim {
  sentence: string;
}

const c = (sentence: string, claim: string, phrase: string, query: string, worthiness: number, fix?: { verdict: 'corrected' | 'refuted'; corrected: string }): ArticleClaim => ({
  sentence,
  claim,
  phrase,
  query,
  worthiness,
  verdict: fix?.verdict ?? 'supported',
  ...(fix ? { corrected: fix.corrected } : {}),
});

export const ARTICLE_CLAIMS: ArticleClaim[] = [
  c('The Eiffel Tower is 300 metres tall.', 'The Eiffel Tower is 300 metres tall.', '330 metres', 'Eiffel Tower height', 0.95, { verdict: 'corrected', corrected: 'The Eiffel Tower is 330 metres tall.' }),
  c('It was completed in March 1889.', 'The Eiffel Tower was completed in March 1889.', 'completed in March 1889', 'Eiffel Tower completed', 0.9),
  c('Marie Curie received the Nobel Prize in Chemistry in 1921.', 'Marie Curie received the Nobel Prize in Chemistry in 1921.', 'In 1911 she received the Nobel Prize in Chemistry', 'Marie Curie Nobel Prize Chemistry', 0.9, { verdict: 'corrected', corrected: 'Marie Curie received the Nobel Prize in Chemistry in 1911.' }),
  c('Mount Fuji last erupted in 1807.', 'Mount Fuji last erupted in 1807.', '1707', '富士山 最後の噴火 1707 Mount Fuji', 0.88, { verdict: 'corrected', corrected: 'Mount Fuji last erupted in 1707.' }),
  c('Tu Youyou was born in Shanghai.', 'Tu Youyou was born in Shanghai.', '宁波', '屠呦呦 宁波 Tu Youyou born', 0.85, { verdict: 'refuted', corrected: 'Tu Youyou was born in Ningbo.' }),
  c('Curie was born in Warsaw in 1867.', 'Marie Curie was born in Warsaw in 1867.', 'born in Warsaw', 'Marie Curie born', 0.8),
  c('She shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel.', 'Marie Curie shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel.', 'shared the Nobel Prize in Physics', 'Marie Curie Nobel Prize Physics 1903', 0.8),
  c('Tu Youyou won the Nobel Prize in Physiology or Medicine in 2015.', 'Tu Youyou won the Nobel Prize in Physiology or Medicine in 2015.', '2015', '屠呦呦 诺贝尔 2015 Tu Youyou Nobel', 0.8),
  c('Mount Fuji rises 3,776 metres above sea level.', 'Mount Fuji rises 3,776 metres above sea level.', '3776', '富士山 標高 3776 Mount Fuji', 0.75),
  c('The Louvre opened as a museum in 1793.', 'The Louvre opened as a museum in 1793.', '1793', 'Louvre musée ouvert 1793', 0.75),
  c("Its glass pyramid was designed by I. M. Pei and inaugurated in 1989.", "The Louvre's glass pyramid was designed by I. M. Pei and inaugurated in 1989.", 'Pei', 'Louvre pyramide Pei', 0.7),
  c('The tower weighs about 7,300 tonnes.', 'The Eiffel Tower weighs about 7,300 tonnes.', '7,300 tonnes', 'Eiffel Tower height', 0.6),
  // The longer page (budget sweep) adds these.
  c('Construction began in January 1887.', 'Construction of the Eiffel Tower began in January 1887.', 'January 1887', 'Eiffel Tower construction began', 0.55),
  c('Curie married the physicist Pierre Curie in 1895.', 'Marie Curie married the physicist Pierre Curie in 1895.', 'Pierre Curie in 1895', 'Marie Curie married Pierre Curie', 0.55),
  c('The Curies announced the discovery of polonium and radium in 1898.', 'Marie and Pierre Curie announced the discovery of polonium and radium in 1898.', 'two new elements in 1898', 'Curie polonium radium 1898', 0.5),
  c('Curie died on 4 July 1934.', 'Marie Curie died on 4 July 1934.', '4 July 1934', 'Marie Curie death', 0.5),
  c('The tower was the tallest structure in the world until the Chrysler Building was finished in 1930.', 'The Eiffel Tower was the tallest man-made structure in the world until the Chrysler Building was finished in 1930.', 'Chrysler Building', 'Eiffel Tower tallest Chrysler Building', 0.45),
  c('Mount Fuji became a UNESCO World Heritage Site in 2013.', 'Mount Fuji became a UNESCO World Heritage Site in 2013.', '2013', '富士山 世界文化遺産 2013 Mount Fuji', 0.45),
  c('Tu Youyou received the Lasker Award in 2011.', 'Tu Youyou received the Lasker Award in 2011.', '2011', '屠呦呦 拉斯克 2011 Tu Youyou Lasker', 0.4),
  c('The tower receives around six million visitors a year.', 'The Eiffel Tower receives around six million visitors a year.', 'six million visitors', 'Eiffel Tower visitors', 0.35),
];

/** Sentences that are not claims, placed between the claims as a page has them. */
const FILLER = ['Paris remains the most romantic city in Europe, in our view.', 'Who would not want to see all of these places in one lifetime?', 'Next summer the queues will surely be even longer.'];

/** The page text with the first `n` claims (their sentences in page order, filler between). */
export function articleText(n: number): string {
  const claims = ARTICLE_CLAIMS.slice(0, n);
  // Page order groups the subjects, not the check-worthiness order of the list above.
  const order = [...claims].sort((a, b) => subject(a.sentence) - subject(b.sentence) || ARTICLE_CLAIMS.indexOf(a) - ARTICLE_CLAIMS.indexOf(b));
  const lines: string[] = ['Four landmarks, four errors to catch'];
  order.forEach((x, i) => {
    lines.push(x.sentence);
    if (i % 4 === 3) lines.push(FILLER[(i >> 2) % FILLER.length] as string);
  });
  return lines.join('\n');
}

function subject(s: string): number {
  return /tower|Eiffel|Construction/i.test(s) ? 0 : /Curie|She /.test(s) ? 1 : /Louvre|pyramid/i.test(s) ? 2 : /Fuji/.test(s) ? 3 : 4;
}
