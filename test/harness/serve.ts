/** Start the harness by hand and print where everything is: `npx tsx test/harness/serve.ts`.
 * Optional fixed ports: --llm 11434 --search 8888 --site 8080. Ctrl+C stops it. */
import { parseArgs } from 'node:util';
import { startHarness } from './index.ts';

const { values } = parseArgs({
  options: { llm: { type: 'string' }, search: { type: 'string' }, site: { type: 'string' }, 'no-key': { type: 'boolean' } },
});
const port = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

const harness = await startHarness({
  ports: { llm: port(values.llm), search: port(values.search), site: port(values.site) },
  llm: values['no-key'] ? { apiKey: undefined } : undefined,
});
console.log(harness.describe());
console.log('\nPress Ctrl+C to stop.');

const stop = async (): Promise<void> => {
  await harness.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
