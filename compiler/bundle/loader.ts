// server.mjs is a short ES module followed by the bundle itself, a CommonJS script kept in a block
// comment (importing the file only scans it). The module runs that script through node:vm so V8 can
// take its compiled code from `server.mjs.cache` (written by `pipewright compile`, code-cache.ts):
// Node 20 caches no ES module's code, and parsing the 1.3 MB bundle was about a third of a start.
// Without the cache, or with one V8 refuses (another Node version or V8 flags), it compiles the
// script as before. Stack traces name server.mjs with its own line numbers.
import { createHash } from 'node:crypto';

/** What may stand for `*\/` inside the comment: the first `*c/` the bundle does not hold. None of them
 *  overlaps itself or `*\/`, so undoing the replacement gives the bundle back exactly. */
const ESCAPES = [...'~^@#%!?&|:;=,.-_'].map((c) => `*${c}/`);
/** The line that opens the comment and the script (its wrapper: the names a CommonJS body expects). */
const OPEN = '/*\n(function (exports, require, module, __pwFilename, __pwDirname, __pwUrl) {"use strict";\n';
const CLOSE = '\n})\n*/\n';

/** The loader, for the build `id`. The cache file starts with the id: V8 itself only checks a cache's
 *  source length, so a cache of another build of the same length would otherwise be taken. */
function loader(id: string, escape: string, encoding: 'latin1' | 'utf8'): string {
  return `// A pipewright server: \`node server.mjs [--port N] [--host H]\`. The bundle is the script in the
// comment below, run through node:vm with V8's compiled code from server.mjs.cache when that file
// belongs to this build (\`PIPEWRIGHT_WRITE_CODE_CACHE=1 node server.mjs\` writes it for this Node).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
const BUILD = ${JSON.stringify(id)};
const url = import.meta.url, file = fileURLToPath(url), cacheFile = file + '.cache';
const text = readFileSync(file, ${JSON.stringify(encoding)});
const start = text.indexOf(${JSON.stringify(OPEN.slice(0, 3))}) + 3;
const source = text.slice(start, text.lastIndexOf(${JSON.stringify(CLOSE.slice(3))})).replaceAll(${JSON.stringify(escape)}, '*/');
let cachedData;
try {
  const c = readFileSync(cacheFile);
  if (c.toString('latin1', 0, BUILD.length) === BUILD) cachedData = c.subarray(BUILD.length);
} catch {}
const script = new vm.Script(source, {
  filename: file, lineOffset: text.slice(0, start).split('\\n').length - 1, cachedData,
  importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(url), module, file, dirname(file), url);
if (process.env.PIPEWRIGHT_WRITE_CODE_CACHE === '1') {
  // After evaluation and the routes built once (no port, store or timer), so their code is in it too.
  await module.exports.warm?.();
  writeFileSync(cacheFile + '.' + process.pid, Buffer.concat([Buffer.from(BUILD, 'latin1'), script.createCachedData()]));
  renameSync(cacheFile + '.' + process.pid, cacheFile);
  // Whatever the routes' plugins left open (sockets of surfaces, timers) must not keep it running.
  process.exit(0);
} else {
  await module.exports.run();
}
`;
}

/** server.mjs's text around `script`, esbuild's CommonJS output exporting `run` (the server) and
 *  optionally `warm` (run before the cache is written). */
export function serverFile(script: string): string {
  // esbuild escapes what is not ASCII except in some regex literals (a heavy transform's library has
  // one): an ASCII bundle is read as latin1, which skips decoding 1.3 MB of UTF-8.
  const encoding = /[^\x00-\x7f]/.test(script) ? 'utf8' : 'latin1';
  const escape = ESCAPES.find((e) => !script.includes(e));
  if (!escape) throw new Error('internal error: no comment escape is free in this bundle');
  const id = createHash('sha256').update(script).digest('hex').slice(0, 32);
  return loader(id, escape, encoding) + OPEN + script.replaceAll('*/', escape) + CLOSE;
}
