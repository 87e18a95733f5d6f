/** Checks the development set and prints its counts:
 *   npx tsx bench/retrieval/devset/check.ts [--write-split]
 * --write-split records each question's part (splitParts) in questions.jsonl; a part already
 * recorded is never changed by it: a mismatch is reported instead. */
import { writeFileSync } from 'node:fs';
import { CATEGORIES, checkQuestions, loadPages, loadQuestions, PARTS, QUESTIONS_FILE, splitParts, type DevQuestion } from './dataset';

const questions = loadQuestions();
if (process.argv.includes('--write-split')) {
  const split = splitParts(questions);
  const lines = questions.map((q) => {
    const part = q.part ?? split.get(q.id);
    const { id, category, lang, question, gold } = q;
    return JSON.stringify({ id, category, lang, question, gold, part } satisfies DevQuestion);
  });
  writeFileSync(QUESTIONS_FILE, lines.join('\n') + '\n');
  for (const q of questions) q.part ??= split.get(q.id)!;
}
const problems = checkQuestions(questions, await loadPages());
for (const p of problems) console.log(`PROBLEM ${p}`);
console.log(`${questions.length} questions`);
for (const c of CATEGORIES) {
  const qs = questions.filter((q) => q.category === c);
  console.log(`  ${c.padEnd(15)} ${String(qs.length).padStart(3)}  (${PARTS.map((p) => `${p} ${qs.filter((q) => q.part === p).length}`).join(', ')})`);
}
process.exitCode = problems.length ? 1 : 0;
