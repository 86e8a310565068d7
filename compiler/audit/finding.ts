// What `pipewright audit` reports: one security-relevant fact of a config or of the environment,
// with how much it matters and what to do about it.
export const SEVERITIES = ['info', 'low', 'medium', 'high'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Finding {
  /** Stable kebab-case name of the rule (`open-interface`), for CI filters and docs. */
  id: string;
  severity: Severity;
  /** The config the finding is about; absent for facts of the environment alone. */
  file?: string;
  /** 1-based position of the config node the finding is about. */
  line?: number;
  col?: number;
  interface?: string;
  action?: string;
  /** What is the case and what it means. */
  message: string;
  /** What to do about it. */
  fix: string;
}

export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);

export function isSeverity(s: string): s is Severity {
  return (SEVERITIES as readonly string[]).includes(s);
}

/** Highest severity first, then by rule, file and position (stable output for diffs and CI). */
export function sortFindings(all: Finding[]): Finding[] {
  return [...all].sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || a.id.localeCompare(b.id)
    || (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
}
