// The sftp `timeout` obeys the bound every action timeout has (runtime/values/bounds.ts): past one day
// it is refused, not silently capped. Its `port` follows the one port rule (runtime/values/port.ts).
import { describe, expect, it } from 'vitest';
import { sftpSettings } from '../../runtime/actions/sftp/settings.ts';

const base = { host: 'h', user: 'u', password: 'p', accept_any_host_key: true, operation: 'list', path: '/' };

describe('sftp timeout', () => {
  it('takes a duration, defaults to 30 s, refuses 0 and anything past the action-timeout bound', () => {
    expect(sftpSettings({ ...base, timeout: '2s' }).timeoutMs).toBe(2000);
    expect(sftpSettings(base).timeoutMs).toBe(30_000);
    expect(() => sftpSettings({ ...base, timeout: '0s' })).toThrow(/"timeout" must be more than 0/);
    expect(() => sftpSettings({ ...base, timeout: '30d' })).toThrow(/sftp: "timeout": /);
  });
});

describe('sftp port', () => {
  it('reads a port as discover does (runtime/values/port.ts): a number or digits, 22 when unset', () => {
    expect(sftpSettings(base).port).toBe(22);
    expect(sftpSettings({ ...base, port: 2222 }).port).toBe(2222);
    expect(sftpSettings({ ...base, port: ' 2222 ' }).port).toBe(2222);
    for (const port of [0, 65536, 22.5, '0x16', '2.2e1', 'ssh']) {
      expect(() => sftpSettings({ ...base, port })).toThrow('sftp: "port" must be a whole number from 1 to 65535');
    }
  });
});

describe('sftp accept_any_host_key', () => {
  it('reads the flag as every marker-fed flag is read (true, "true", 1, "1"); otherwise host_key is required', () => {
    const { accept_any_host_key: _, ...noFlag } = base;
    for (const on of [true, 'true', 1, '1']) expect(sftpSettings({ ...noFlag, accept_any_host_key: on }).hostKey).toBeUndefined();
    for (const off of [false, 'false', 0, undefined]) {
      expect(() => sftpSettings({ ...noFlag, accept_any_host_key: off })).toThrow('sftp: "host_key" is required unless accept_any_host_key is true');
    }
  });
});
