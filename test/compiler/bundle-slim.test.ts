// A bundle holds only what its config uses: without the heavy transforms it contains neither the
// spreadsheet reader, nor pdf.js, nor the HTML parser, nor the jq engine, nor nodemailer, nor the
// JSONPath engine or the cron parser, and never fastify's schema compilers (ajv, fast-json-stringify)
// or inject(); it stays under 1.5 MB and still answers. A config that uses them gets them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateModule } from '../../compiler/codegen/module.ts';
import { bundleServer } from '../../compiler/bundle.ts';
import { compileConfig } from '../../compiler/project.ts';

const LIGHT = `
interfaces:
  report:
    method: POST
    actions:
      - name: Report
        input: a|body|
        output: http
        post_transforms:
          - filter: { conditions: { price: { is_greater_than: 10 } } }
          - math: { expressions: { total: "target.price * target.qty" } }
          - extract_with_jq: "map({id, total})"
`;
const HEAVY = `
interfaces:
  sheet:
    method: POST
    actions:
      - name: Sheet
        input: a|body|
        output: http
        post_transforms:
          - parse_xlsx: { value: file, key: rows }
          - parse_pdf: { value: pdf, key: text }
          - extract_with_css: { value: html, selector: title, key: title }
          - extract_with_jq: "{rows, line: input_line_number}"
      - name: Mail
        email: { from: a@example.test, to: b@example.test, text: hi }
  tick:
    schedule: { cron: "0 0 1 1 *", enabled: false }
    actions:
      - name: Call
        url: http://127.0.0.1:9/tick
`;

// Text each engine's code is sure to contain, minified or not. (input_line_number is outside the
// jq subset the compiler turns into code, so it needs the engine.)
const jqWasmHead = /"([A-Za-z0-9+/]{40})/.exec(readFileSync('runtime/jq/vendor/jq-wasm.mjs', 'utf8'))![1]!;
const MARKERS = {
  xlsx: 'SheetJS', pdfjs: 'PDFDocumentProxy', cheerio: 'cheerio', jqEngine: jqWasmHead, nodemailer: 'all recipients were rejected',
  croner: 'CronPattern: Pattern has to be of type string.',
};
// json-p3's engine: every JSONPath the compiler meets becomes code, so only an embedded interpreter needs it.
const JSONPATH_ENGINE = 'JSONPathSyntaxError';
// Never in a bundle: the runtime gives fastify no route schema and never calls inject().
const NEVER = { ajv: 'strictSchema', fastJsonStringify: 'fast-json-stringify', lightMyRequest: 'FST_LIGHTMYREQUEST_DEP01' };

const dir = mkdtempSync(join(tmpdir(), 'pw-slim-'));
const children: Array<{ kill(): void }> = [];
afterAll(() => { for (const c of children) c.kill(); });

/** `codeCache: false` for a bundle the test starts itself (starting it evaluates it, as the cache-writing process would). */
async function bundle(name: string, yaml: string, o: { codeCache?: boolean } = {}): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  const c = compileConfig(file);
  expect(c.diagnostics).toEqual([]);
  const moduleFile = join(dir, `${name}.ts`);
  writeFileSync(moduleFile, await generateModule(c.ir!));
  const out = join(dir, `${name}.mjs`);
  await bundleServer(moduleFile, out, o);
  return out;
}

// Each test runs esbuild over the whole runtime: tens of seconds on a loaded 2-core machine.
describe('bundle contents', { timeout: 120_000 }, () => {
  it('leaves out the heavy engines a config does not use, and still answers', async () => {
    const out = await bundle('light', LIGHT, { codeCache: false });
    const text = readFileSync(out, 'utf8');
    for (const [engine, marker] of Object.entries({ ...MARKERS, ...NEVER, jsonP3: JSONPATH_ENGINE })) expect(text.includes(marker), engine).toBe(false);
    expect(statSync(out).size).toBeLessThan(1.5 * 1024 * 1024);

    const child = spawn(process.execPath, [out, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    const url = await new Promise<string>((resolve) => {
      let s = ''; // the listening line is on stderr (stdout holds only JSON lines)
      child.stderr.on('data', (d) => { s += d; const m = /listening on (\S+)/.exec(s); if (m) resolve(m[1]!); });
    });
    const res = await fetch(`${url}/report`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ id: 1, price: 20, qty: 2 }, { id: 2, price: 5, qty: 1 }]) });
    expect(await res.text()).toBe('[{"id":1,"total":40}]');
  });

  it('keeps the RE2 engine for a JSONPath match() (the only regex of the config) but not the JSONPath engine, and answers', async () => {
    const out = await bundle('jsonpath_regex', `
interfaces:
  names:
    method: POST
    actions:
      - name: Pick
        input: a|body|
        output: http
        post_transforms:
          - extract_with_json_path: "$[?match(@.name, '(a+)+')].name"
`, { codeCache: false });
    // The path was compiled: the answer below comes without json-p3's engine in the bundle.
    expect(readFileSync(out, 'utf8').includes(JSONPATH_ENGINE)).toBe(false);
    const child = spawn(process.execPath, [out, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    const url = await new Promise<string>((resolve) => {
      let s = ''; // the listening line is on stderr (stdout holds only JSON lines)
      child.stderr.on('data', (d) => { s += d; const m = /listening on (\S+)/.exec(s); if (m) resolve(m[1]!); });
    });
    const res = await fetch(`${url}/names`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ name: `${'a'.repeat(30_000)}b` }, { name: 'aa' }]) });
    expect(await res.text()).toBe('["aa"]');
  });

  it('includes them when the config uses them', async () => {
    const text = readFileSync(await bundle('heavy', HEAVY), 'utf8');
    for (const [engine, marker] of Object.entries(MARKERS)) expect(text.includes(marker), engine).toBe(true);
    for (const [part, marker] of Object.entries(NEVER)) expect(text.includes(marker), part).toBe(false);
  });
});
