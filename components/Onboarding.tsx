import { useT } from './i18n';

export function Onboarding({ onOpenSettings }: { onOpenSettings(): void }) {
  const t = useT();
  return (
    <section className="notice onboarding" data-testid="onboarding">
      <h2>{t('onboardingTitle')}</h2>
      <p>{t('onboardingBody')}</p>
      <button type="button" className="primary" onClick={onOpenSettings}>
        {t('onboardingAction')}
      </button>
    </section>
  );
}
