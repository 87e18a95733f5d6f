/** "Test connection" as a newcomer uses it: list the server's models first (no model name needed),
 * then test the one picked with a tiny call. Shared by the welcome card and the settings page. */
import { useState } from 'react';
import { request, RequestFailed } from '@/lib/browser/messaging';
import type { ConnectionReport } from '@/lib/llm/test-connection';
import type { RunError } from '@/lib/core/run';
import type { LlmSettings } from '@/lib/settings/schema';

export type ConnectionState =
  | { phase: 'idle' }
  | { phase: 'listing' }
  /** `models` may be empty: the server does not list them, the user types a name. */
  | { phase: 'listed'; models: string[] }
  | { phase: 'testing'; models: string[] }
  | { phase: 'ok'; models: string[]; report: ConnectionReport }
  | { phase: 'failed'; models: string[]; error: RunError };

const asError = (err: unknown): RunError => (err instanceof RequestFailed ? err.error : { code: 'unknown', message: err instanceof Error ? err.message : String(err) });

export function useConnection() {
  const [state, setState] = useState<ConnectionState>({ phase: 'idle' });
  const models = 'models' in state ? state.models : [];

  /** Lists the models; a server without a model list (404 on /models) is not an error. */
  const list = async (llm: LlmSettings): Promise<string[] | undefined> => {
    setState({ phase: 'listing' });
    try {
      const found = await request('llm/models', { llm: { ...llm, model: '' } });
      setState({ phase: 'listed', models: found });
      return found;
    } catch (err) {
      const error = asError(err);
      if (error.code === 'model-not-found') {
        setState({ phase: 'listed', models: [] });
        return [];
      }
      setState({ phase: 'failed', models: [], error });
      return undefined;
    }
  };

  /** One tiny call with the chosen model. */
  const test = async (llm: LlmSettings): Promise<ConnectionReport | undefined> => {
    setState({ phase: 'testing', models });
    try {
      const report = await request('llm/test', { llm });
      const found = report.models.length ? report.models : models;
      if (report.ok) setState({ phase: 'ok', models: found, report });
      else setState({ phase: 'failed', models: found, error: report.error ?? { code: 'unknown', message: '' } });
      return report;
    } catch (err) {
      setState({ phase: 'failed', models, error: asError(err) });
      return undefined;
    }
  };

  return { state, models, list, test, reset: () => setState({ phase: 'idle' }) };
}
