/** The library's catalogue (tab titles, sites, languages) for the prompts that write queries. */
import type { CatalogueEntry } from '../core/passage';
import type { Ctx } from './context';

/** The library's catalogue for the prompts that write queries; a slow or failing tab read
 * leaves it out rather than hold up the draft. */
export async function libraryCatalogue(ctx: Pick<Ctx, 'library' | 'signal'>): Promise<CatalogueEntry[]> {
  if (!ctx.library.catalogue) return [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<CatalogueEntry[]>((resolve) => (timer = setTimeout(() => resolve([]), 3000)));
  try {
    // Without a catalogue the queries are written in the question's language, as before.
    return await Promise.race([ctx.library.catalogue(ctx.signal).catch(() => []), late]);
  } finally {
    clearTimeout(timer);
  }
}
