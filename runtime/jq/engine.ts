// The full jq engine: real jq (jq-web, wasm) for the interpreter and for programs the compiler rejects.
// Load once with `await initJq()`, then `jqAll` is synchronous.
import { brotliDecompressSync } from 'node:zlib';
import factory, { type JqWebModule } from './vendor/jq-web.mjs';
import packed from './vendor/jq-wasm.mjs';
import { JqError } from './errors.ts';

export { JqError };

// Node has WebAssembly at run time; this project's TS libs only declare its types.
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
}
const WebAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let wasm: Promise<object> | undefined;
let engine: JqWebModule | undefined;
let loading: Promise<void> | undefined;

/** Loads the wasm engine. Idempotent; call at startup (also after a crash to wait for the restart). */
export function initJq(): Promise<void> {
  if (engine) return Promise.resolve();
  loading ??= load().finally(() => { loading = undefined; });
  return loading;
}

async function load(): Promise<void> {
  // Compile once; a fresh instance after a crash only needs instantiation.
  wasm ??= WebAssembly.compile(brotliDecompressSync(Buffer.from(packed, 'base64')));
  const mod = await wasm;
  let failed: ((e: unknown) => void) | undefined;
  const instantiateFailed = new Promise<never>((_, reject) => { failed = reject; });
  engine = await Promise.race([
    factory({
      // jq's stdout/stderr are captured per call; the runtime must not print (e.g. "Aborted()").
      print: () => {},
      printErr: () => {},
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(mod, imports).then((inst) => done(inst, mod), failed);
        return {};
      },
    }),
    instantiateFailed,
  ]);
}

/** Per-program facts, bounded so generated/dynamic programs cannot grow memory without limit. */
interface ProgramInfo { compileError?: JqError; ok?: boolean }
const programs = new Map<string, ProgramInfo>();
const MAX_PROGRAMS = 1000;

function info(program: string): ProgramInfo {
  let p = programs.get(program);
  if (!p) {
    if (programs.size >= MAX_PROGRAMS) programs.delete(programs.keys().next().value!);
    p = {};
    programs.set(program, p);
  }
  return p;
}

// jq 1.7 keeps the text of input number literals and `tostring` returns it ("1E-7", "0.00001"), while a
// computed number prints as "1e-07"/"1e-05". The compiled fast path only sees doubles, so numbers whose JS
// text differs from jq's own formatting (exponents, 17+ digits, 0.0000x) are made plain doubles first.
const LITERAL_MISMATCH = /[0-9][eE][+-]|[0-9]{17}|0\.0000/;
const PLAIN_NUMBERS =
  'def __pw_num: if type == "number" then . + 0 elif type == "array" then map(__pw_num) ' +
  'elif type == "object" then map_values(__pw_num) else . end; __pw_num | ';

// JSON.stringify escapes only control characters and lone surrogates as \uXXXX (not after an escaped \).
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * All outputs of jq `program` on `input` (JSON data; undefined counts as null).
 * Throws JqError on compile or runtime errors, with jq's message.
 */
export function jqAll(program: string, input: unknown): unknown[] {
  const p = info(program);
  if (p.compileError) throw p.compileError;
  let text = JSON.stringify(input) ?? 'null';
  // jq rejects the \udXXX escapes JSON.stringify writes for lone surrogates; it would read them as U+FFFD.
  if (text.includes('\\ud')) text = text.replace(LONE_SURROGATE, '$1\\ufffd');
  const plain = LITERAL_MISMATCH.test(text);
  // A leading '-' would be read as a command-line option.
  const filter = plain ? PLAIN_NUMBERS + program : program.startsWith('-') ? ' ' + program : program;
  const r = run(text, filter);
  if (r.code === 3 && (plain || !p.ok)) {
    // Report the error of the program as written (the prefix would shift columns).
    p.compileError = plain ? compileError(run('null', program).stderr) : compileError(r.stderr);
    throw p.compileError;
  }
  if (r.code !== 0) throw runtimeError(r.code, r.stderr);
  p.ok = true;
  return r.stdout === undefined ? [] : r.stdout.split('\n').map((line) => JSON.parse(line));
}

interface RunResult { code: number; stdout?: string; stderr: string }

function run(text: string, filter: string): RunResult {
  if (!engine) {
    throw new JqError(loading ? 'jq engine is restarting; retry shortly' : 'jq engine not loaded: await initJq() at startup');
  }
  // Emscripten's exit path sets process.exitCode; the host process must not inherit jq's exit status.
  const exitCode = process.exitCode;
  try {
    return { code: 0, stdout: engine.raw(text, filter, ['-c']), stderr: '' };
  } catch (e) {
    const err = e as { exitCode?: unknown; stderr?: unknown; message?: unknown };
    if (typeof err.exitCode === 'number') return { code: err.exitCode, stderr: typeof err.stderr === 'string' ? err.stderr : '' };
    // A wasm trap leaves the instance in an unknown state: drop it and load a fresh one in the background.
    engine = undefined;
    void initJq().catch(() => {});
    throw new JqError(`jq engine crashed (${String(err.message ?? e)}); restarting`);
  } finally {
    process.exitCode = exitCode;
  }
}

function compileError(stderr: string): JqError {
  const lines = stderr.split('\n').filter((l) => !/^jq: \d+ compile errors?$/.test(l));
  return new JqError(lines.join('\n').replace(/^jq: error: /, '') || 'jq: compile error', 'compile');
}

const RUNTIME = /^jq: error \(at [^)]*\)(?: \(not a string\))?: /m;

function runtimeError(code: number, stderr: string): JqError {
  const m = RUNTIME.exec(stderr);
  if (!m) return new JqError(stderr || `jq exited with status ${code}`); // halt_error: stderr is the message
  const rest = stderr.slice(m.index + m[0].length);
  if (!m[0].includes('(not a string)')) return new JqError(rest);
  let value: unknown = rest;
  try { value = JSON.parse(rest); } catch { /* keep the text */ }
  return new JqError(`${rest} (not a string)`, 'runtime', value);
}
