/** Tooltip and aria strings for page marks. Kept here rather than in lib/i18n because the page
 * script bundles them and should stay small; the same two languages as the UI, and the verdict
 * names are the UI's own (lib/i18n/verdict-labels.ts). */
import { VERDICT_LABELS } from '../i18n/verdict-labels';
import { VERDICTS, VERDICT_INFO } from '../core/verdicts';
import type { MarkVerdict, MarksLanguage } from './types';

export interface MarkLabels {
  verdict: Record<MarkVerdict, string>;
  /** What the verdict means for the sentence, and where its details are. */
  details: Record<MarkVerdict, string>;
  /** Opens the claim in the side panel. */
  show: string;
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
    details: {
      supported: 'Sources back this sentence. They are in the Ratify side panel.',
      corrected: 'A detail is wrong. The correction and its sources are in the Ratify side panel.',
      refuted: 'Sources contradict this sentence. Why, and the sources, are in the Ratify side panel.',
      unverifiable: 'No source settled this sentence either way.',
    },
    show: 'Show in Ratify',
    clear: 'Clear marks',
    close: 'Close',
    dialog: 'Ratify check',
    markAria: 'Ratify: {verdict}. {sentence}',
    hint: 'Details are in the Ratify side panel.',
  },
  'zh-CN': {
    verdict: VERDICT_LABELS['zh-CN'],
    details: {
      supported: '有来源支持这句话。来源见 Ratify 侧边栏。',
      corrected: '其中有细节错误。更正和来源见 Ratify 侧边栏。',
      refuted: '来源与这句话矛盾。原因和来源见 Ratify 侧边栏。',
      unverifiable: '没有来源能证实或否定这句话。',
    },
    show: '在 Ratify 中查看',
    clear: '清除标记',
    close: '关闭',
    dialog: 'Ratify 核查',
    markAria: 'Ratify：{verdict}。{sentence}',
    hint: '详情见 Ratify 侧边栏。',
  },
};

export function marksLanguage(lang: string | undefined): MarksLanguage {
  return lang && /^zh/i.test(lang) ? 'zh-CN' : 'en';
}

export function marksLabels(lang: MarksLanguage): MarkLabels {
  return LABELS[lang];
}

export const VERDICT_ICON = Object.fromEntries(VERDICTS.map((v) => [v, VERDICT_INFO[v].icon])) as Record<MarkVerdict, string>;
