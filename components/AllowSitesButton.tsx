/** "Allow reading sites": shows the browser's permission prompt and says whether it was declined. */
import { requestHostAccess } from '@/lib/browser/host-access';
import { useT } from './i18n';

export function AllowSitesButton({ onDeclined }: { onDeclined: (declined: boolean) => void }) {
  const t = useT();
  return (
    <button
      type="button"
      className="primary"
      onClick={() => {
        onDeclined(false);
        // Called synchronously in the click: the permission prompt needs the user's gesture.
        requestHostAccess().then(
          (ok) => onDeclined(!ok),
          // The browser refused to ask (no gesture, or a policy): shown like a refusal.
          (e: unknown) => {
            console.warn('Ratify: site access request failed', e);
            onDeclined(true);
          },
        );
      }}
    >
      {t('accessAllow')}
    </button>
  );
}
