import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../compiler/load/index.ts';
import { formatDiagnostic } from '../../compiler/source/diagnostics.ts';
import { JOBS, LEGACY, ORDERS, TRANSFORMS } from './configs.ts';

const cases = { 'orders.yaml': ORDERS, 'jobs.yaml': JOBS, 'transforms.yaml': TRANSFORMS, 'legacy.yaml': LEGACY };

// These configs use every part of the schema; fields this build does not implement are refused
// (compiler/load/unbuilt.ts), and nothing else is reported.
const REFUSED: Record<string, string[]> = {
  'orders.yaml': [],
  'jobs.yaml': [],
  'transforms.yaml': [],
  'legacy.yaml': [],
};

describe('valid configs', () => {
  for (const [file, text] of Object.entries(cases)) {
    it(`${file} loads with no diagnostics but the refusals of unbuilt fields`, () => {
      const r = loadConfig(file, text);
      const other = r.diagnostics.filter((d) => !d.message.endsWith('is not available in this build'));
      expect(other.map((d) => formatDiagnostic(d, text, { color: false }))).toEqual([]);
      expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message.split(' ')[0]}`)).toEqual(REFUSED[file]);
      expect(r.ok).toBe(REFUSED[file]!.length === 0);
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
