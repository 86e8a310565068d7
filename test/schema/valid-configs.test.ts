import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../compiler/load/index.ts';
import { formatDiagnostic } from '../../compiler/source/diagnostics.ts';
import { JOBS, LEGACY, ORDERS, TRANSFORMS } from './configs.ts';

const cases = { 'orders.yaml': ORDERS, 'jobs.yaml': JOBS, 'transforms.yaml': TRANSFORMS, 'legacy.yaml': LEGACY };

describe('valid configs', () => {
  for (const [file, text] of Object.entries(cases)) {
    it(`${file} loads with no diagnostics`, () => {
      const r = loadConfig(file, text);
      expect(r.diagnostics.map((d) => formatDiagnostic(d, text, { color: false }))).toEqual([]);
      expect(r.ok).toBe(true);
      expect(r.name).toBe(file.replace('.yaml', ''));
    });
  }

  it('keeps the parsed value as written (no defaults injected)', () => {
    const r = loadConfig('orders.yaml', ORDERS);
    const iface = (r.config as any).interfaces.order_summary;
    expect(iface.actions[0].retry.attempts).toBe(4);
    expect(iface.actions[1].retry).toBeUndefined();
    expect((r.config as any).features).toEqual({ parse_pdf: false });
  });

  it('reads the file when no text is given', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'pw-')), 'legacy.yml');
    writeFileSync(file, LEGACY);
    const r = loadConfig(file);
    expect(r.ok).toBe(true);
    expect(r.name).toBe('legacy');
    expect(r.text).toBe(LEGACY);
  });
});
