/** Tooltip and aria strings for page marks. Kept here rather than in lib/i18n because the page
 * script bundles them and should stay small; the same two languages as the UI, and the verdict
 * names are the UI's own (lib/i18n/verdict-labels.ts). */
import { VERDICT_LABELS } from '../i18n/verdict-labels';
import type { MarkVerdict, MarksLanguage } from './types';

export interface MarkLabels {
  verdict: Record<MarkVerdict, string>;
  shouldRead: string;
  sources: string;
  noSources: string;
  clear: string;
  close: string;
  dialog: string;
  /** Aria label of a mark: {verdict} {sentence}; {hint} says how to reach the details. */
  markAria: string;
  hint: string;
}

const LABELS: Record<MarksLanguage, MarkLabels> = {
  en: {
    verdict: VERDICT_LABELS.en,
    shouldRead: 'Should read:',
    sources: 'Sources',
    noSources: 'No source found.',
    clear: 'Clear marks',
    close: 'Close',
    dialog: 'Ratify check',
    markAria: 'Ratify: {verdict}. {sentence}',
    hint: 'Press Enter for details.',
  },
  'zh-CN': {
    verdict: VERDICT_LABELS['zh-CN'],
    shouldRead: '应为：',
    sources: '来源',
    noSources: '未找到来源。',
    clear: '清除标记',
    close: '关闭',
    dialog: 'Ratify 核查',
    markAria: 'Ratify：{verdict}。{sentence}',
    hint: '按 Enter 查看详情。',
  },
};

export function marksLanguage(lang: string | undefined): MarksLanguage {
  return lang && /^zh/i.test(lang) ? 'zh-CN' : 'en';
}

export function marksLabels(lang: MarksLanguage): MarkLabels {
  return LABELS[lang];
}

export const VERDICT_ICON: Record<MarkVerdict, string> = {
  supported: '✓',
  corrected: '✎',
  refuted: '✗',
  unverifiable: '?',
};
