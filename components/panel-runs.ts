/** The panel's runs for React: the one store (lib/runs/panel-runs.ts) over the one subscription to
 * the worker, read with useSyncExternalStore. The panel never sets the run it shows itself: it
 * asks the worker (panelRuns.show) and shows what the worker publishes. */
import { useSyncExternalStore } from 'react';
import { followRuns, request } from '@/lib/browser/messaging';
import { createPanelRunStore, type PanelRuns } from '@/lib/runs/panel-runs';

export const panelRuns = createPanelRunStore(followRuns, (id) => request('run/show', { id }));

export function usePanelRuns(): PanelRuns {
  return useSyncExternalStore(panelRuns.subscribe, panelRuns.getSnapshot);
}
