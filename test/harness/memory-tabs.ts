/** A TabsAdapter over pages held in memory: Node tests, the benchmark and the CLI use it where the
 * extension uses browser tabs. Honours `knownHash` like the real reader script. */
import type { ReadablePage } from '../../lib/retrieval/page.ts';
import type { TabInfo, TabRead, TabsAdapter } from '../../lib/retrieval/tabs.ts';

export interface MemoryTab extends TabInfo {
  page?: ReadablePage;
  /** Simulated read time (ms), or an error to throw. */
  delayMs?: number;
  error?: string;
  /** The active window's tabs (scope 'window'); default true. */
  inCurrentWindow?: boolean;
}

export function createMemoryTabs(tabs: MemoryTab[], extensionOrigin = 'chrome-extension://ratify-test'): TabsAdapter & { reads: number[] } {
  const reads: number[] = [];
  return {
    extensionOrigin,
    reads,
    list(scope) {
      return Promise.resolve(tabs.filter((t) => scope === 'all' || t.inCurrentWindow !== false));
    },
    async read(tab, { knownHash, signal }): Promise<TabRead> {
      const t = tabs.find((x) => x.id === tab.id);
      if (!t) throw new Error('no such tab');
      if (t.delayMs) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, t.delayMs);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('aborted'));
          }, { once: true });
        });
      }
      if (t.error) throw new Error(t.error);
      const page = t.page ?? { url: t.url, hash: '0', title: t.title, text: '', headings: [] };
      if (knownHash && knownHash === page.hash) return { kind: 'unchanged', hash: page.hash };
      reads.push(t.id);
      return { kind: 'page', page };
    },
  };
}
