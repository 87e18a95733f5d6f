import { createContext, useContext, type ReactNode } from 'react';
import { translate, type MessageKey, type UiLanguage } from '@/lib/i18n/messages';

const LangContext = createContext<UiLanguage>('en');

export function I18nProvider({ lang, children }: { lang: UiLanguage; children: ReactNode }) {
  return <LangContext.Provider value={lang}>{children}</LangContext.Provider>;
}

export type T = (key: MessageKey, params?: Record<string, string | number>) => string;

export function useT(): T {
  const lang = useContext(LangContext);
  return (key, params) => translate(lang, key, params);
}

export function useLang(): UiLanguage {
  return useContext(LangContext);
}
