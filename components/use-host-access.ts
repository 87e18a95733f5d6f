/** Whether Ratify may read sites (the optional host permission), kept live: granted or taken back
 * here, in Settings, or in the browser's own extension page. */
import { useEffect, useState } from 'react';
import { hasHostAccess, watchHostAccess } from '@/lib/browser/host-access';

/** undefined until known. */
export function useHostAccess(): boolean | undefined {
  const [granted, setGranted] = useState<boolean>();
  useEffect(() => {
    let live = true;
    const stop = watchHostAccess((g) => live && setGranted(g));
    hasHostAccess().then(
      (g) => live && setGranted(g),
      // Unknown state: nothing is shown rather than a wrong one.
      (e: unknown) => console.warn('Ratify: site access state unknown', e),
    );
    return () => {
      live = false;
      stop();
    };
  }, []);
  return granted;
}
