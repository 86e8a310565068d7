// A disable_fastpath interface is embedded as IR and interpreted at start-up: its lines too go
// through the module's position table, and it answers as the interpreter does.
import { Project } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { generateModule } from '../../compiler/codegen/module.ts';
import { irOf, planOf, serveOn, testEnv } from '../support/plans.ts';

const config = `interfaces:
  fast:
    actions:
      - name: Echo
        input: a|params|
        post_transforms:
          - keep_attributes: [a]
        output: http
  slow:
    disable_fastpath: true
    actions:
      - name: Echo
        input: a|params|
        post_transforms:
          - add_attribute: { line: 7 }
        json_output: { got: .a, line: .line }
        output: http
`;
const apps: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => { for (const a of apps) await a.close(); });

describe('a disable_fastpath interface', () => {
  it('is embedded with its lines in the position table, and only the table moves when a line is inserted', async () => {
    const before = await generateModule(irOf('embedded.yaml', config));
    expect(before).toContain('rt.interpretInterface(');
    expect(before).toMatch(/line: lines\.slow,/);
    expect(before).toMatch(/line: lines\.slow_Echo_post_0 \}/);
    expect(before).toContain('{ k: "lit", v: { line: 7 } }'); // the user's data is left alone
    const after = await generateModule(irOf('embedded.yaml', `# moved\n${config}`));
    const table = /\/\/ Lines in [^\n]*\nconst lines = \{\n[^}]*\};\n/;
    expect(after.replace(table, '')).toBe(before.replace(table, ''));
    expect(after).not.toBe(before);
    // The embedded IR type-checks as the interpreter's input: the module's own diagnostics (the
    // runtime it imports is type-checked by tsc, not again here).
    const project = new Project({ tsConfigFilePath: 'tsconfig.json', skipAddingFilesFromTsConfig: true });
    const module = project.createSourceFile('out/__embedded_check.ts', before);
    expect(module.getPreEmitDiagnostics().map((d) => project.formatDiagnosticsWithColorAndContext([d]))).toEqual([]);
  }, 120_000);

  it('answers the same through the compiled module and the interpreter', async () => {
    const answers = [];
    for (const mode of ['compiled', 'interpreted'] as const) {
      const s = await serveOn([await planOf('embedded.yaml', mode, config)], testEnv());
      apps.push(s.app);
      const res = await fetch(`${s.url}/slow?a=1&b=2`);
      answers.push({ status: res.status, body: await res.text() });
    }
    expect(answers[0]).toEqual({ status: 200, body: JSON.stringify({ got: '1', line: 7 }) });
    expect(answers[1]).toEqual(answers[0]);
  });
});
