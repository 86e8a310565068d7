// A schedule's cron and timezone are checked as the server will read them (runtime/schedule), so
// `99 * * * *` is a check error with its position rather than a failed start.
import { cronOf, scheduleSettings } from '../../runtime/schedule/settings.ts';
import { interfaces, isObj } from './walk.ts';
import type { Report } from './report.ts';

export function lintSchedules(config: unknown, report: Report): void {
  for (const site of interfaces(config)) {
    const raw = site.iface.schedule;
    if (!isObj(raw) || typeof raw.cron !== 'string') continue;
    const settings = scheduleSettings(raw);
    if (!settings) continue;
    try {
      cronOf(`interface "${site.name}"`, settings);
    } catch (e) {
      const field = (e as Error).message.includes('timezone') ? 'timezone' : 'cron';
      report('error', [...site.path, 'schedule', field], (e as Error).message, field === 'cron' ? 'five fields: minute (0-59) hour (0-23) day (1-31) month (1-12) weekday (0-7)' : undefined, 'value');
    }
  }
}
