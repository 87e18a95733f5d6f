import { useEffect, useState } from 'react';
import { followRun } from '@/lib/browser/messaging';
import { applyEvent } from '@/lib/pipeline/run-state';
import type { Run } from '@/lib/pipeline/types';

/** A run as the worker sees it: a snapshot (live run, or the stored one) then its events. */
export function useLiveRun(id: string | null): Run | undefined {
  const [run, setRun] = useState<Run>();
  useEffect(() => {
    setRun(undefined);
    if (!id) return;
    return followRun(id, (u) => {
      if (u.type === 'snapshot') setRun(u.run);
      else setRun((r) => (r && r.id === u.runId ? applyEvent(r, u.event) : r));
    });
  }, [id]);
  return run;
}
