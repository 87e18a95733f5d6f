/** A request to the worker made from the panel: its failure is shown (ErrorNotice) until the next. */
import { useState } from 'react';
import { RequestFailed } from '@/lib/browser/messaging';
import type { RunError } from '@/lib/core/run';

export type Act = (f: () => Promise<unknown>) => Promise<boolean>;

export function useAct(): { error: RunError | undefined; act: Act } {
  const [error, setError] = useState<RunError>();
  const act: Act = async (f) => {
    setError(undefined);
    try {
      await f();
      return true;
    } catch (err) {
      setError(err instanceof RequestFailed ? err.error : { code: 'unknown', message: String(err) });
      return false;
    }
  };
  return { error, act };
}
