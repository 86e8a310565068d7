// `server.mjs.cache`: V8's compiled code of a bundle, for the Node that compiles it. The server writes
// it itself (loader.ts) in a process of its own that evaluates the bundle's modules, builds its
// routes (runtime/server/warm.ts) and exits: no port, store or setting is touched. Evaluation
// failing there would fail every start of the server too, so it fails the build.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const TIMEOUT_MS = 120_000;

export async function writeCodeCache(serverFile: string): Promise<void> {
  const cacheFile = `${serverFile}.cache`;
  rmSync(cacheFile, { force: true });
  const child = spawn(process.execPath, [serverFile], { env: { ...process.env, PIPEWRIGHT_WRITE_CODE_CACHE: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  // It exits once the cache is written; one that hangs must not hang the build.
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`pipewright: writing ${cacheFile} failed (${code ?? `no exit in ${TIMEOUT_MS / 1000} s`}): ${err}`);
}
