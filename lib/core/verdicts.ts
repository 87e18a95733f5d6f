/** The one list of verdicts a checked claim can get, and what each means to the rest of Ratify:
 * whether it changes the text, whether it must rest on a citation, how severe it is (for sorting
 * and colour), its icon, and what it maps to in FEVER-style evaluation. Labels are in lib/i18n
 * (`verdict_<id>`); the panel, the page marks, the export and the eval all read from here. */

export const VERDICTS = ['supported', 'corrected', 'refuted', 'unverifiable'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface VerdictInfo {
  /** The claim's corrected text replaces it in the corrected passage. */
  changesText: boolean;
  /** Only shown with at least one validated citation; without one it becomes "unverifiable". */
  needsCitation: boolean;
  /** 0 = fine … 2 = wrong; for ordering and colour. */
  severity: 0 | 1 | 2;
  /** Shown next to colour, so the verdict never rests on colour alone. */
  icon: string;
  /** FEVER label this verdict counts as (eval). */
  fever: 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO';
}

export const VERDICT_INFO: Record<Verdict, VerdictInfo> = {
  supported: { changesText: false, needsCitation: true, severity: 0, icon: '✓', fever: 'SUPPORTS' },
  corrected: { changesText: true, needsCitation: true, severity: 1, icon: '✎', fever: 'REFUTES' },
  refuted: { changesText: true, needsCitation: true, severity: 2, icon: '✗', fever: 'REFUTES' },
  unverifiable: { changesText: false, needsCitation: false, severity: 1, icon: '?', fever: 'NOT ENOUGH INFO' },
};

export function isVerdict(v: unknown): v is Verdict {
  return typeof v === 'string' && (VERDICTS as readonly string[]).includes(v);
}

export function changesText(v: Verdict | undefined): boolean {
  return v !== undefined && VERDICT_INFO[v].changesText;
}

/** The verdict that may be shown given how many validated citations back it. */
export function backedVerdict(v: Verdict, citations: number): Verdict {
  return VERDICT_INFO[v].needsCitation && citations === 0 ? 'unverifiable' : v;
}
