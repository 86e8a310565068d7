// The interface's `capture` setting (raw JSON in the plan) read once.
export type CaptureMode = 'off' | 'errors' | 'all';

export interface CaptureSetting {
  mode: CaptureMode;
  /** Window limits; absent = no limit of that kind. */
  forMinutes?: number;
  forRuns?: number;
}

const MODES = new Set<string>(['off', 'errors', 'all']);

export function captureSetting(raw: unknown): CaptureSetting {
  if (typeof raw === 'string') return { mode: MODES.has(raw) ? (raw as CaptureMode) : 'off' };
  if (!raw || typeof raw !== 'object') return { mode: 'off' };
  const r = raw as Record<string, unknown>;
  const mode = typeof r.mode === 'string' && MODES.has(r.mode) ? (r.mode as CaptureMode) : 'off';
  return {
    mode,
    ...(typeof r.for_minutes === 'number' ? { forMinutes: r.for_minutes } : {}),
    ...(typeof r.for_runs === 'number' ? { forRuns: r.for_runs } : {}),
  };
}
