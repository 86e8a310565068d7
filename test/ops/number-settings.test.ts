// Numeric SERVICE__ settings (runtime/values/number-setting.ts), as the ops settings and the WebSocket
// limits read them: unset or empty is the default, anything else a number within bounds or a refusal
// that names the setting.
import { describe, expect, it } from 'vitest';
import { opsSettings } from '../../runtime/server/ops-settings.ts';
import { StartupError } from '../../runtime/server/startup-errors.ts';
import { numberSetting } from '../../runtime/values/number-setting.ts';

describe('numeric settings', () => {
  it('unset and empty give the default', () => {
    expect(numberSetting({}, 'X', 7, { min: 0 })).toBe(7);
    expect(numberSetting({ X: '' }, 'X', 7, { min: 0 })).toBe(7);
  });

  it('a fraction passes where whole numbers are not asked for, and seconds become milliseconds', () => {
    expect(opsSettings({ SERVICE__SHUTDOWN_GRACE_SECS: '1.5' }).shutdownGraceMs).toBe(1500);
    expect(opsSettings({ SERVICE__SHUTDOWN_GRACE_SECS: '0' }).shutdownGraceMs).toBe(0);
  });

  it('refuses text, a value out of bounds and a fraction where a whole number is asked for, naming the setting', () => {
    for (const bad of ['soon', '-1', '3601', 'Infinity']) {
      expect(() => opsSettings({ SERVICE__SHUTDOWN_GRACE_SECS: bad })).toThrow(new StartupError(`SERVICE__SHUTDOWN_GRACE_SECS=${bad} must be a number between 0 and 3600`));
    }
    expect(() => opsSettings({ SERVICE__SHUTDOWN_GRACE_SECS: 'soon' })).toThrow(StartupError); // one line at start, no stack
    expect(() => numberSetting({ N: '2.5' }, 'N', 1, { min: 1, whole: true })).toThrow('N=2.5 must be a whole number of at least 1');
    expect(() => numberSetting({ N: '0' }, 'N', 1, { min: 1, whole: true })).toThrow('N=0 must be a whole number of at least 1');
    expect(numberSetting({ N: '1000000' }, 'N', 1, { min: 1, whole: true })).toBe(1_000_000);
  });
});
