import { describe, expect, it } from 'vitest';
import { formatDiagnostic, type Diagnostic } from '../../compiler/source/diagnostics.ts';
import { loadConfig } from '../../compiler/load/index.ts';

const TEXT = `interfaces:
  orders:
    actions:
      - name: Fetch
        http: { url: https://x }
        retyr:
          attempts: 3
        timeout: 5s
`;

describe('formatDiagnostic', () => {
  it('prints location, message, a code frame with 2 lines of context, and the hint', () => {
    const [d] = loadConfig('orders.yaml', TEXT).diagnostics;
    expect(formatDiagnostic(d, TEXT, { color: false })).toBe(
      [
        'orders.yaml:6:9: error: unknown field "retyr" in action "Fetch"',
        '  4 |       - name: Fetch',
        '  5 |         http: { url: https://x }',
        '> 6 |         retyr:',
        '    |         ^',
        '  7 |           attempts: 3',
        '  8 |         timeout: 5s',
        'hint: did you mean "retry"?',
      ].join('\n'),
    );
  });

  it('clips context at the file edges and widens the gutter for long files', () => {
    const text = Array.from({ length: 12 }, (_, i) => `k${i + 1}: ${i + 1}`).join('\n');
    const first: Diagnostic = { file: 'f.yaml', line: 1, col: 5, severity: 'warning', message: 'w' };
    expect(formatDiagnostic(first, text, { color: false })).toBe(
      ['f.yaml:1:5: warning: w', '> 1 | k1: 1', '    |     ^', '  2 | k2: 2', '  3 | k3: 3'].join('\n'),
    );
    const last: Diagnostic = { ...first, line: 12, col: 1 };
    expect(formatDiagnostic(last, text, { color: false }).split('\n').slice(1)).toEqual([
      '  10 | k10: 10',
      '  11 | k11: 11',
      '> 12 | k12: 12',
      '     | ^',
    ]);
  });

  it('keeps tabs so the caret lines up', () => {
    const d: Diagnostic = { file: 'f', line: 1, col: 3, severity: 'error', message: 'm' };
    expect(formatDiagnostic(d, '\tab', { color: false }).split('\n')[2]).toBe('    | \t ^');
  });

  it('omits the frame when the position is outside the text', () => {
    const d: Diagnostic = { file: 'f', line: 40, col: 1, severity: 'error', message: 'm', hint: 'h' };
    expect(formatDiagnostic(d, 'a: 1', { color: false })).toBe('f:40:1: error: m\nhint: h');
  });

  it('colours only when asked', () => {
    const [d] = loadConfig('orders.yaml', TEXT).diagnostics;
    expect(formatDiagnostic(d, TEXT, { color: false })).not.toMatch(/\x1b\[/);
    const coloured = formatDiagnostic(d, TEXT, { color: true });
    expect(coloured).toMatch(/\x1b\[31m/);
    expect(coloured.replace(/\x1b\[\d+m/g, '')).toBe(formatDiagnostic(d, TEXT, { color: false }));
  });
});
