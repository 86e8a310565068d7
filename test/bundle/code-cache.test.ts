// server.mjs runs its bundle through node:vm with V8's code cache from server.mjs.cache
// (compiler/bundle/loader.ts): a cache of its own build is taken; one of another build, even of the
// same length, or one V8 refuses, is not, and the server answers the same either way. The comment
// that holds the bundle gives back every `*/` it had, and stack traces point into server.mjs.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateModule } from '../../compiler/codegen/module.ts';
import { bundleServer } from '../../compiler/bundle.ts';
import { serverFile } from '../../compiler/bundle/loader.ts';
import { writeCodeCache } from '../../compiler/bundle/code-cache.ts';
import { irOf } from '../support/plans.ts';

// Reports what V8 did with the cache the loader handed it (the loader's only vm.Script).
const PROBE = `data:text/javascript,${encodeURIComponent(`import vm from 'node:vm';
const S = vm.Script;
vm.Script = class extends S { constructor(src, o) { super(src, o); process.stderr.write('cache: ' + (o && o.cachedData ? (this.cachedDataRejected ? 'rejected' : 'taken') : 'none') + '\\n'); } };`)}`;

const config = (word: string) => `
interfaces:
  hello:
    method: GET
    actions:
      - name: Hi
        output: http
        input: { said: "${word}" }
`;

const dir = mkdtempSync(join(tmpdir(), 'pw-cache-'));
const children: Array<{ kill(): void }> = [];
afterAll(() => { for (const c of children) c.kill(); });

async function build(name: string, yaml: string): Promise<string> {
  writeFileSync(join(dir, `${name}.yaml`), yaml);
  const moduleFile = join(dir, `${name}.ts`);
  writeFileSync(moduleFile, await generateModule(irOf(join(dir, `${name}.yaml`))));
  await bundleServer(moduleFile, join(dir, `${name}.mjs`));
  return join(dir, `${name}.mjs`);
}

/** Starts `file`, reads what it did with its cache, and the body of GET /hello. */
function serve(file: string): Promise<{ cache: string; body: string }> {
  const child = spawn(process.execPath, ['--import', PROBE, file, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let err = '', asked = false;
    child.stdout.resume(); // the listening line is on stderr (stdout holds only JSON lines, drained)
    child.stderr.on('data', async (d) => {
      err += d;
      const m = /listening on (\S+)/.exec(err);
      if (!m || asked) return;
      asked = true;
      const body = await (await fetch(`${m[1]}/hello`)).text();
      child.kill();
      resolve({ cache: /cache: (\w+)/.exec(err)?.[1] ?? '?', body });
    });
    child.on('exit', (code) => { if (code) reject(new Error(`exited ${code}: ${err}`)); });
  });
}

let a = '', b = '';
beforeAll(async () => {
  // Two builds of the same length that answer differently.
  [a, b] = [await build('a', config('alpha')), await build('b', config('bravo'))];
}, 120_000);

describe('a bundle and its code cache', { timeout: 60_000 }, () => {
  it('takes the cache compile wrote beside it', async () => {
    expect(statSync(`${a}.cache`).size).toBeGreaterThan(0);
    expect(await serve(a)).toEqual({ cache: 'taken', body: '{"said":"alpha"}' });
  });

  it('ignores a cache of another build of the same length, and one V8 refuses', async () => {
    expect(statSync(a).size).toBe(statSync(b).size);
    const other = join(mkdtempSync(join(tmpdir(), 'pw-cache-')), 'server.mjs');
    copyFileSync(b, other);
    copyFileSync(`${a}.cache`, `${other}.cache`);
    expect(await serve(other)).toEqual({ cache: 'none', body: '{"said":"bravo"}' });
    // Its own build's header, but bytes V8 did not write.
    const own = readFileSync(`${b}.cache`);
    writeFileSync(`${other}.cache`, Buffer.concat([own.subarray(0, 32), Buffer.alloc(own.length - 32, 7)]));
    expect(await serve(other)).toEqual({ cache: 'rejected', body: '{"said":"bravo"}' });
  });

  it('gives the script back exactly from its comment, whatever escape the text leaves free', async () => {
    // Not ASCII either (as in the heavy transforms' bundles): the file is then read as UTF-8.
    const texts = ['*/', '**//', '*~/', '/* x */', '*^/', 'café ☕'];
    const file = join(dir, 'escape.mjs');
    writeFileSync(file, serverFile(`exports.run = () => {\n  console.log(JSON.stringify(${JSON.stringify(texts)}));\n  throw new Error("where");\n};\n`));
    await writeCodeCache(file);
    const r = await new Promise<{ out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '', err = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; });
      child.on('exit', () => resolve({ out, err }));
    });
    expect(JSON.parse(r.out)).toEqual(texts);
    // The frame is server.mjs's own line and column: the text there is the error's construction. (A
    // column after an escaped `*\/` on the same line is one further per escape.)
    const [, line, col] = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:(\\d+):(\\d+)`).exec(r.err)!;
    const at = readFileSync(file, 'latin1').split('\n')[Number(line) - 1]!.slice(Number(col) - 1);
    expect(at).toMatch(/^new Error\("where"\)/);
  });
});
