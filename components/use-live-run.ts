import { useEffect, useState } from 'react';
import { followRun } from '@/lib/browser/messaging';
import { applyEvent } from '@/lib/pipeline/run-state';
import type { Run } from '@/lib/core/run';

/** A run as the worker sees it: a snapshot (live run, or the stored one) then its events.
 * `generation` follows it afresh: a run continued under the same id (Retry) is live again. */
export function useLiveRun(id: string | null, generation = 0): Run | undefined {
  const [run, setRun] = useState<Run>();
  useEffect(() => {
    setRun(undefined);
    if (!id) return;
    let stop: () => void = () => {};
    let closed = false;
    let retries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const follow = () => {
      stop = followRun(
        id,
        (u) => {
          retries = 0;
          if (u.type === 'snapshot') setRun(u.run);
          else setRun((r) => (r && r.id === u.runId ? applyEvent(r, u.event) : r));
        },
        // The browser stopped the worker (or it crashed): connecting again wakes it, and it
        // resumes the run from its last checkpoint before answering with a fresh snapshot.
        () => {
          // Back off a little so a worker that cannot start does not make us spin.
          if (!closed && retries < 5) timer = setTimeout(follow, 100 * 2 ** retries++);
        },
      );
    };
    follow();
    return () => {
      closed = true;
      clearTimeout(timer);
      stop();
    };
  }, [id, generation]);
  return run;
}
