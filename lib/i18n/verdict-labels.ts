/** The one vocabulary for verdicts, in every UI language: the panel, the export and the marks in a
 * page all read these (the page script imports only this small file). The verdicts themselves are
 * lib/core/verdicts.ts. */
import type { Verdict } from '../core/verdicts';

export type VerdictLanguage = 'en' | 'zh-CN';

export const VERDICT_LABELS: Record<VerdictLanguage, Record<Verdict, string>> = {
  en: { supported: 'Supported', corrected: 'Corrected', refuted: 'Refuted', unverifiable: 'Unverifiable' },
  'zh-CN': { supported: '有来源支持', corrected: '已更正', refuted: '与来源不符', unverifiable: '无法核实' },
};

/** The labels as `verdict_<id>` message keys. */
export function verdictMessages<L extends VerdictLanguage>(lang: L) {
  const l = VERDICT_LABELS[lang];
  return { verdict_supported: l.supported, verdict_corrected: l.corrected, verdict_refuted: l.refuted, verdict_unverifiable: l.unverifiable };
}
