// SERVICE__LOG_LEVEL (trace, debug, info, warn, error, fatal, silent; default info) and
// SERVICE__LOG_PRETTY=1 (human-readable lines instead of JSON), SERVICE__LOG_LEVEL_LABELS=1 (levels
// as words, "info", rather than pino's numbers, 30). A wrong level is a startup error.
import { StartupError } from './startup-errors.ts';
import type { LogSettings } from '../log/logger.ts';

export type { LogSettings };


export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

export function logSettings(env: NodeJS.ProcessEnv = process.env): LogSettings {
  const level = (env.SERVICE__LOG_LEVEL ?? 'info').trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new StartupError(`SERVICE__LOG_LEVEL=${env.SERVICE__LOG_LEVEL} is not a log level: use one of ${LOG_LEVELS.join(', ')}`);
  }
  return { level, pretty: flag(env.SERVICE__LOG_PRETTY), ...(flag(env.SERVICE__LOG_LEVEL_LABELS) ? { labels: true } : {}) };
}

// Spellings checked by service-settings.ts (FLAGS).
const flag = (v: string | undefined): boolean => v?.toLowerCase() === '1' || v?.toLowerCase() === 'true';
