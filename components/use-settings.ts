import { useEffect, useState } from 'react';
import { loadSettings, watchSettings } from '@/lib/browser/settings-store';
import type { Settings } from '@/lib/settings/schema';

/** Current settings, kept fresh when the options page saves. Undefined while loading. */
export function useSettings(): Settings | undefined {
  const [settings, setSettings] = useState<Settings>();
  useEffect(() => {
    let live = true;
    void loadSettings().then((s) => live && setSettings(s));
    const stop = watchSettings((s) => setSettings(s));
    return () => {
      live = false;
      stop();
    };
  }, []);
  return settings;
}
