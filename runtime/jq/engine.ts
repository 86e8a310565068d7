// The full jq engine: jq 1.8.2 in wasm (built by vendor/build/build.sh), called through libjq's API
// (vendor/build/pw_jq.c) for the interpreter and for programs the compiler rejects. A program is compiled
// once per instance. Synchronous (`initJq()` at start-up only moves the load out of the first request),
// except jqAllAsync, which the request path uses for programs that may run a regex (runtime/jq/pool.ts).
// Programs run in the worker of runtime/jq/deep.ts, within their time bound (runtime/jq/bounds.ts).
import { brotliDecompressSync } from 'node:zlib';
import glue from './vendor/jq-glue.mjs';
import packed from './vendor/jq-wasm.mjs';
import { jqCore, type JqCore } from './core.ts';
import { deepExec, type DeepReply } from './deep.ts';
import { poolExec } from './pool.ts';
import { JqError } from './errors.ts';
import { engineFailure } from './limits.ts';
import { JqBound, overTime, timeBound } from './bounds.ts';
import { mayRunRegex, regexBusy, regexTimeout, regexTimeoutMs } from './regex.ts';
import { stringifyDeep } from './stringify.ts';

export { JqError };

// Node has WebAssembly at run time; this project's TS libs only declare its types.
const WebAssembly = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;

let compiled: object | undefined;
let core: JqCore | undefined;

// Compiled programs per instance, and verdicts on invalid ones; bounded: programs may be built at run time.
const MAX_PROGRAMS = 256;
const compileErrors = new Map<string, JqError>();
const MAX_CACHED = 1000;

const wasmModule = (): object => (compiled ??= new WebAssembly.Module(brotliDecompressSync(Buffer.from(packed, 'base64'))));

/** Loads the engine at start-up (idempotent). jqAll also loads it on first use. */
export async function initJq(): Promise<void> {
  core ??= jqCore(glue, wasmModule(), MAX_PROGRAMS);
}

// jq keeps the text of input number literals and `tostring` returns it ("1E-7"), while a computed number
// prints as "1e-07". The compiled fast path only sees doubles, so numbers whose JS text differs from jq's
// own formatting (exponents, 17+ digits, 0.0000x) are made plain doubles first.
const LITERAL_MISMATCH = /[0-9][eE][+-]|[0-9]{17}|0\.0000/;
const PLAIN_NUMBERS =
  'def __pw_num: if type == "number" then . + 0 elif type == "array" then map(__pw_num) ' +
  'elif type == "object" then map_values(__pw_num) else . end; __pw_num | ';

// JSON.stringify escapes only control characters and lone surrogates as \uXXXX (not after an escaped \).
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * All outputs of jq `program` on `input` (JSON data; undefined counts as null).
 * Throws JqError on compile or runtime errors, with jq's message. Outputs before an error do not count:
 * the error carries them as `outputs` (for tests that compare with jq's --run-tests).
 */
export function jqAll(program: string, input: unknown): unknown[] {
  const { run, text } = prepare(program, input);
  return outputsOf(runText(run, text));
}

/**
 * jqAll for the request path: a program that may run a regex runs on the pool of runtime/jq/pool.ts
 * (its deadline kept) while the event loop serves others; any other program answers as jqAll does.
 */
export async function jqAllAsync(program: string, input: unknown): Promise<unknown[]> {
  if (!mayRunRegex(program)) return jqAll(program, input);
  const { run, text } = prepare(program, input);
  check(program); // compile errors on this thread (compiling runs no regex), cached as for jqAll
  const result = await poolExec(glue, wasmModule(), MAX_PROGRAMS, run, text, regexTimeoutMs());
  return outputsOf(splitResult(reply(result)));
}

/** The program to run (numbers made plain when jq would print them otherwise) and the input's JSON text. */
function prepare(program: string, input: unknown): { run: string; text: string } {
  let text = serialize(input);
  // jq rejects the \udXXX escapes JSON.stringify writes for lone surrogates; it would read them as U+FFFD.
  if (text.includes('\\ud')) text = text.replace(LONE_SURROGATE, '$1\\ufffd');
  const plain = LITERAL_MISMATCH.test(text);
  if (plain) check(program); // errors of the program as written (the prefix would shift columns)
  return { run: plain ? PLAIN_NUMBERS + program : program, text };
}

function outputsOf(r: { outputs: string[]; error?: JqError }): unknown[] {
  const outputs = r.outputs.map((l) => JSON.parse(l) as unknown);
  if (r.error) throw Object.assign(r.error, { outputs });
  return outputs;
}

/** JSON text of the input; one nested deeper than the JS stack allows is written without recursion. */
function serialize(input: unknown): string {
  try {
    return JSON.stringify(input) ?? 'null';
  } catch (e) {
    if (e instanceof RangeError) return stringifyDeep(input);
    throw e;
  }
}

/** jq's compile error for `program`, or null when it compiles. */
export function jqCompileError(program: string): JqError | null {
  try {
    check(program);
    return null;
  } catch (e) {
    if (e instanceof JqError && e.kind === 'compile') return e;
    throw e;
  }
}

/** For tests: the outputs of `program` on JSON text exactly as jq prints them (compact), and any error. */
export function jqRunText(program: string, text: string): { outputs: string[]; error?: JqError } {
  return runText(program, text);
}

function check(program: string): void {
  exec(program, null);
}

function runText(program: string, text: string): { outputs: string[]; error?: JqError } {
  return splitResult(exec(program, text));
}

function splitResult(result: string): { outputs: string[]; error?: JqError } {
  const outputs = result.split('\n');
  const status = outputs.pop()!;
  return status === '' ? { outputs } : { outputs, error: statusError(status) };
}

/**
 * core.exec with compile errors as JqError. Compiling runs on this thread; running runs in the deep worker
 * (runtime/jq/deep.ts), which this thread waits for at most the program's time bound (runtime/jq/bounds.ts;
 * a program that may run a regex: SERVICE__JQ_REGEX_TIMEOUT_MS), so no program holds the event loop longer
 * and its memory is the worker's (the engine's MEMORY_MB), never this heap's. Traps as JqError.
 */
function exec(program: string, text: string | null): string {
  const known = compileErrors.get(program);
  if (known) throw known;
  // Emscripten's exit path may set process.exitCode; the host process must not inherit it.
  const exitCode = process.exitCode;
  let result: string;
  try {
    if (text === null) result = (core ??= jqCore(glue, wasmModule(), MAX_PROGRAMS)).exec(program, null);
    else if (mayRunRegex(program)) result = reply(deepExec(glue, wasmModule(), MAX_PROGRAMS, program, text, regexTimeoutMs()));
    else {
      const bound = timeBound();
      const r = deepExec(glue, wasmModule(), MAX_PROGRAMS, program, text, bound.ms);
      if ('timeout' in r) throw overTime(bound);
      result = reply(r);
    }
  } catch (err) {
    if (err instanceof JqError || err instanceof JqBound) throw err;
    core = undefined; // a trapped instance is not reused
    throw engineFailure(err);
  } finally {
    process.exitCode = exitCode;
  }
  if (result[0] === 'C') {
    const e = compileError(result.slice(1));
    if (compileErrors.size >= MAX_CACHED) compileErrors.delete(compileErrors.keys().next().value!);
    compileErrors.set(program, e);
    throw e;
  }
  return result;
}

/** The deep worker's answer, or its trap or timeout as a JqError. */
function reply(r: DeepReply): string {
  if ('timeout' in r) throw regexTimeout(r.timeout);
  if ('busy' in r) throw regexBusy(r.busy);
  if ('trap' in r) throw engineFailure(r.range ? new RangeError(r.trap) : new Error(r.trap));
  return r.ok;
}

/** The last line of pw_run's result (see vendor/build/pw_jq.c) as an error. */
function statusError(status: string): JqError {
  const rest = status.slice(1);
  if (status[0] === 'E') return runtimeError(JSON.parse(rest));
  if (status[0] === 'I') return new JqError(`jq cannot read the input: ${rest}${/depth limit/.test(rest) ? ' (jq reads at most 10000 levels of nesting)' : ''}`);
  // H<code>\t<message as JSON, or nothing>: halt / halt_error. A string message is shown as is.
  const tab = rest.indexOf('\t');
  const code = Number(rest.slice(0, tab));
  const text = rest.slice(tab + 1);
  const msg: unknown = text === '' ? null : JSON.parse(text);
  const shown = msg === null ? '' : typeof msg === 'string' ? msg.replace(/\n$/, '') : JSON.stringify(msg);
  return new JqError(shown || `jq halted with exit status ${code}`, 'runtime', msg);
}

function runtimeError(msg: unknown): JqError {
  if (typeof msg === 'string') return new JqError(msg, 'runtime', msg);
  return new JqError(`${JSON.stringify(msg)} (not a string)`, 'runtime', msg);
}

function compileError(text: string): JqError {
  const lines = text.split('\n').filter((l) => !/^jq: \d+ compile errors?$/.test(l));
  return new JqError(lines.join('\n').replace(/^jq: error: /, '') || 'jq: compile error', 'compile');
}
