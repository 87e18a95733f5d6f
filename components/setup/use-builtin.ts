/** The browser's built-in model (Chrome's Prompt API) as the welcome card offers it: whether it
 * is there, can be downloaded or is downloading, and the download with its progress. */
import { useEffect, useState } from 'react';
import { api } from '@/lib/llm/builtin-availability';

export type BuiltinState = { kind: 'checking' } | { kind: 'unavailable' } | { kind: 'downloadable' } | { kind: 'downloading'; progress: number } | { kind: 'available' } | { kind: 'failed'; message: string };

interface Monitor {
  addEventListener(type: 'downloadprogress', f: (e: { loaded: number }) => void): void;
}

/** LanguageModel.create with a download monitor (the Prompt API's own progress events). */
type CreateWithMonitor = (opts: { monitor: (m: Monitor) => void }) => Promise<{ destroy(): void }>;

/** Creating a session makes the browser download the model; progress comes as 0..1 fractions. */
export async function downloadModel(create: CreateWithMonitor, onProgress: (percent: number) => void): Promise<void> {
  const session = await create({
    monitor(m) {
      m.addEventListener('downloadprogress', (e) => onProgress(Math.round(e.loaded * 100)));
    },
  });
  session.destroy();
}

export function useBuiltinModel(): { state: BuiltinState; download(): Promise<boolean> } {
  const [state, setState] = useState<BuiltinState>({ kind: 'checking' });
  useEffect(() => {
    let live = true;
    const lm = api();
    if (!lm) {
      setState({ kind: 'unavailable' });
      return;
    }
    lm.availability().then(
      (a) => live && setState(a === 'available' ? { kind: 'available' } : a === 'downloading' ? { kind: 'downloading', progress: 0 } : a === 'downloadable' ? { kind: 'downloadable' } : { kind: 'unavailable' }),
      // An API that cannot even say whether it is there is as good as absent.
      () => live && setState({ kind: 'unavailable' }),
    );
    return () => {
      live = false;
    };
  }, []);

  /** Must run inside the click that asked for it: the browser downloads only on a user gesture. */
  const download = async (): Promise<boolean> => {
    const lm = api();
    if (!lm) return false;
    setState({ kind: 'downloading', progress: 0 });
    try {
      await downloadModel(lm.create.bind(lm), (progress) => setState({ kind: 'downloading', progress }));
      setState({ kind: 'available' });
      return true;
    } catch (err) {
      setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
      return false;
    }
  };
  return { state, download };
}
