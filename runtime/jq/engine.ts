// The full jq engine: real jq (jq-web, wasm) for the interpreter and for programs the compiler rejects.
// Synchronous throughout: `initJq()` at start-up only moves the ~20 ms load out of the first request.
import { brotliDecompressSync } from 'node:zlib';
import factory, { type JqWebModule } from './vendor/jq-web.mjs';
import packed from './vendor/jq-wasm.mjs';
import { JqError } from './errors.ts';

export { JqError };

// Node has WebAssembly at run time; this project's TS libs only declare its types.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}
const WebAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | undefined;
let engine: JqWebModule | undefined;

/** A fresh jq instance (compiling jq.wasm once, ~20 ms; later instances take ~1 ms). */
function start(): JqWebModule {
  compiled ??= new WebAssembly.Module(brotliDecompressSync(Buffer.from(packed, 'base64')));
  const module = compiled;
  return factory({
    // jq's stdout/stderr are captured per call; the runtime must not print (e.g. "Aborted()").
    print: () => {},
    printErr: () => {},
    instantiateSync: (imports) => new WebAssembly.Instance(module, imports),
  });
}

/** Loads the engine at start-up (idempotent). jqAll also loads it on first use. */
export async function initJq(): Promise<void> {
  engine ??= start();
}

// jq-web exposes only jq's main(), so each call compiles the program anew (~1 ms with jq's builtins);
// what can be cached is the verdict on invalid programs. Bounded: programs may be built at run time.
const compileErrors = new Map<string, JqError>();
const MAX_CACHED = 1000;

// jq 1.7 keeps the text of input number literals and `tostring` returns it ("1E-7", "0.00001"), while a
// computed number prints as "1e-07"/"1e-05". The compiled fast path only sees doubles, so numbers whose JS
// text differs from jq's own formatting (exponents, 17+ digits, 0.0000x) are made plain doubles first.
const LITERAL_MISMATCH = /[0-9][eE][+-]|[0-9]{17}|0\.0000/;
const PLAIN_NUMBERS =
  'def __pw_num: if type == "number" then . + 0 elif type == "array" then map(__pw_num) ' +
  'elif type == "object" then map_values(__pw_num) else . end; __pw_num | ';

const COMPILE_FAILED = /jq: \d+ compile errors?\s*$/;

// JSON.stringify escapes only control characters and lone surrogates as \uXXXX (not after an escaped \).
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * All outputs of jq `program` on `input` (JSON data; undefined counts as null).
 * Throws JqError on compile or runtime errors, with jq's message.
 */
export function jqAll(program: string, input: unknown): unknown[] {
  const known = compileErrors.get(program);
  if (known) throw known;
  let text = JSON.stringify(input) ?? 'null';
  // jq rejects the \udXXX escapes JSON.stringify writes for lone surrogates; it would read them as U+FFFD.
  if (text.includes('\\ud')) text = text.replace(LONE_SURROGATE, '$1\\ufffd');
  const plain = LITERAL_MISMATCH.test(text);
  const r = run(text, plain ? PLAIN_NUMBERS + program : asArgument(program));
  if (r.code === 3 && COMPILE_FAILED.test(r.stderr)) { // (halt_error(3) also exits with 3)
    // Report the error of the program as written (the prefix would shift columns).
    const e = compileError(plain ? run('null', asArgument(program)).stderr : r.stderr);
    if (compileErrors.size >= MAX_CACHED) compileErrors.delete(compileErrors.keys().next().value!);
    compileErrors.set(program, e);
    throw e;
  }
  if (r.code !== 0) throw runtimeError(r.code, r.stderr);
  return r.stdout === undefined ? [] : r.stdout.split('\n').map((line) => JSON.parse(line));
}

/** A leading '-' would be read as a command-line option. */
const asArgument = (program: string): string => (program.startsWith('-') ? ' ' + program : program);

interface RunResult { code: number; stdout?: string; stderr: string }

function run(text: string, filter: string): RunResult {
  const jq = (engine ??= start());
  // Emscripten's exit path sets process.exitCode; the host process must not inherit jq's exit status.
  const exitCode = process.exitCode;
  try {
    return { code: 0, stdout: jq.raw(text, filter, ['-c']), stderr: '' };
  } catch (e) {
    const err = e as { exitCode?: unknown; stderr?: unknown; message?: unknown };
    if (typeof err.exitCode === 'number') return { code: err.exitCode, stderr: typeof err.stderr === 'string' ? err.stderr : '' };
    // A wasm trap (out of memory, stack overflow) leaves the instance unusable: the next call gets a new one.
    engine = undefined;
    throw new JqError(`jq engine crashed (${String(err.message ?? e).replace(/\. Build with -sASSERTIONS.*/, '')})`);
  } finally {
    process.exitCode = exitCode;
  }
}

function compileError(stderr: string): JqError {
  const lines = stderr.split('\n').filter((l) => !/^jq: \d+ compile errors?$/.test(l));
  return new JqError(lines.join('\n').replace(/^jq: error: /, '') || 'jq: compile error', 'compile');
}

// jq prints "jq: error (at <input>): <message>" (stderr is trimmed, so an empty message loses the space).
const RUNTIME = /jq: error \(at [^)]*\)( \(not a string\))?:(?: |$)/y;

function runtimeError(code: number, stderr: string): JqError {
  // The last such line: `stderr`/`debug` output may come before it.
  RUNTIME.lastIndex = stderr.lastIndexOf('jq: error (at ');
  const m = RUNTIME.lastIndex >= 0 ? RUNTIME.exec(stderr) : null;
  if (!m) return new JqError(stderr || `jq exited with status ${code}`); // halt_error: stderr is the message
  const rest = stderr.slice(m.index + m[0].length);
  if (!m[1]) return new JqError(rest);
  let value: unknown = rest;
  try { value = JSON.parse(rest); } catch { /* keep the text */ }
  return new JqError(`${rest} (not a string)`, 'runtime', value);
}
