// The published (editor) schema: what `pipewright schema` prints and a `# yaml-language-server:
// $schema=` modeline names. It is fresh, standard draft-07 that a strict validator compiles with no
// custom keyword, it accepts and refuses what pipewright's own validator does, every field has a
// description, and the real yaml-language-server (1.25, run on this Node) reports a typo'd method
// and completes action kinds from it.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { editorSchema, editorSchemaFile } from '../../compiler/schema/editor.ts';
import { configValidator } from '../../compiler/schema/ajv.ts';
import { LspClient } from '../support/lsp.ts';
import * as configs from './configs.ts';
import { fixtureConfigs } from '../support/fixture-configs.ts';

const published = JSON.parse(readFileSync(editorSchemaFile, 'utf8'));

describe('published schema', () => {
  it('is what npm run gen writes from config.schema.json, with none of our keywords', () => {
    expect(published).toEqual(editorSchema(JSON.parse(readFileSync('compiler/schema/config.schema.json', 'utf8'))));
    expect(JSON.stringify(published)).not.toMatch(/"x-[a-z-]+":/);
  });

  it('compiles in ajv strict mode with no keyword added, and judges configs as pipewright does', () => {
    const strict = new Ajv({ strict: true }).compile(published);
    const ours = configValidator();
    const texts = [
      ...fixtureConfigs().map((f) => readFileSync(join('fixtures', f), 'utf8')),
      ...(Object.values(configs) as unknown[]).filter((v): v is string => typeof v === 'string'),
      'interfaces:\n  a:\n    method: GETT\n    actions: [{ name: A, input: { a: 1 } }]\n',
      'interfaces:\n  a:\n    method: get, Post\n    actions: [{ name: A, input: { a: 1 } }]\n',
      'interfaces:\n  a:\n    actions: [{ name: A, http: { url: "http://x.test", method: POTS } }]\n',
      'interfaces:\n  a:\n    actions: [{ name: A, http: { url: "http://x.test", method: { extension: PROPFIND } } }]\n',
      'interfaces:\n  a:\n    actions: [{ name: A, http: { url: "http://x.test", method: "a|body::m|" } }]\n',
      'interfaces:\n  a:\n    actions: [{ name: A, http: { url: "http://x.test", method: POST, multipart: [{ name: f, value: x, b64: eA== }] } }]\n',
      'interfaces:\n  a:\n    actions: [{ name: A, http: { url: "http://x.test", method: POST, multipart: [{ name: f, value: x }] } }]\n',
    ];
    const verdicts = texts.map((t) => { const c = parse(t); return [strict(c), ours(c)]; });
    for (const [n, [a, b]] of verdicts.entries()) expect(a, texts[n]!.slice(0, 120)).toBe(b);
    expect(verdicts.slice(-7).map(([a]) => a)).toEqual([false, true, false, true, true, false, true]);
  });

  it('describes every field, with no placeholder', () => {
    const missing: string[] = [];
    const walk = (n: any, at: string) => {
      if (!n || typeof n !== 'object') return;
      for (const [k, v] of Object.entries<any>(n.properties ?? {})) {
        if (v === true) continue; // a name declared for strict validators beside `required`
        if (typeof v.description !== 'string' || !/\s/.test(v.description.trim()) || /^Documentation text/.test(v.description)) missing.push(`${at}.${k}`);
      }
      for (const [k, v] of Object.entries<any>(n)) if (typeof v === 'object' && k !== 'properties') walk(v, `${at}/${k}`);
      for (const [k, v] of Object.entries<any>(n.properties ?? {})) walk(v, `${at}.${k}`);
    };
    walk(published, '#');
    // Branches of if/then and not that only restate a field declared with its description.
    expect(missing.filter((m) => !/\/(if|then|else|not)[./]/.test(m))).toEqual([]);
  });
});

describe('yaml-language-server with the modeline', () => {
  const server = new LspClient(process.execPath, [resolve('node_modules/yaml-language-server/bin/yaml-language-server'), '--stdio'], {
    yaml: { validate: true, completion: true, hover: true, schemaStore: { enable: false }, schemas: {} },
  });
  afterAll(() => server.stop());
  const uri = pathToFileURL(resolve('test/schema/editor-demo.yaml')).href;
  const text = `# yaml-language-server: $schema=${pathToFileURL(editorSchemaFile).href}
interfaces:
  hello:
    method: GETT
    actions:
      - name: Greet
        
`;

  it('reports a typo\'d method and completes the action kinds', async () => {
    await server.start();
    const diagnostics = server.waitFor('textDocument/publishDiagnostics', (p) => p.uri === uri && p.diagnostics.length > 0);
    server.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const d = (await diagnostics).diagnostics as Array<{ range: { start: { line: number } }; message: string }>;
    const onMethod = d.filter((x) => x.range.start.line === 3);
    expect(onMethod.length, JSON.stringify(d)).toBeGreaterThan(0);
    expect(onMethod.map((x) => x.message).join('\n')).toMatch(/GET|allowed|match/i);
    const completion = await server.request('textDocument/completion', { textDocument: { uri }, position: { line: 6, character: 8 } });
    const labels = ((completion.items ?? completion) as Array<{ label: string }>).map((i) => i.label);
    for (const kind of ['http', 'input', 'delay', 'wait_for_callback', 'database', 'lookup']) expect(labels, labels.join(', ')).toContain(kind);
  }, 60_000);
});
