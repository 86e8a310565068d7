// Operational logs: pino (fastify's own logger), one JSON object per line on stdout, or coloured
// lines through pino-pretty. Every argument of every line passes the process's redactor first, so a
// secret that reached an error message, a header or a config log message is never written.
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Redactor } from '../values/redact.ts';

export type { Logger } from 'pino';

export interface LogSettings {
  level: string;
  pretty: boolean;
  /** `"level":"info"` rather than pino's own `"level":30` (SERVICE__LOG_LEVEL_LABELS=1). */
  labels?: boolean;
}

export function createLogger(settings: LogSettings, redact: Redactor, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: settings.level,
    base: undefined, // no pid/hostname on every line: the node name goes in the start line
    timestamp: isoTime,
    // pino's numbers (10 trace .. 60 fatal) unless asked: what pino-pretty, pino transports and
    // fastify's tooling read.
    ...(settings.labels ? { formatters: { level: (label: string) => ({ level: label }) } } : {}),
    hooks: {
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) args[i] = redact(withErrors(args[i]));
        method.apply(this, args);
      },
    },
  };
  const logger = pino(options, destination ?? (settings.pretty ? prettyStream() : bufferedStdout()));
  redactors.set(logger, redact);
  return logger;
}

const redactors = new WeakMap<Logger, Redactor>();

/** The redactor a logger was made with (createLogger), if it was. */
export const redactorOfLogger = (log: Logger): Redactor | undefined => redactors.get(log);

/** Lines are copied as UTF-8 into a buffer and handed to pino's SonicBoom BATCH bytes at a time (one
 *  write per line showed in profiles under load), and at least every FLUSH_MS, so a quiet service's
 *  lines still appear at once. SonicBoom takes bytes (contentMode 'buffer'): given text, it measures
 *  each string's UTF-8 length, appends strings to strings, encodes the text to write it and again
 *  when the write completes. flush, flushSync and end hand over what is batched first: pino's exit
 *  hook and shutdown lose nothing. Once ended, nothing is batched: a line goes to SonicBoom while it
 *  is still closing, then straight to stdout (a buffer nobody hands over would only grow). */
const FLUSH_MS = 100;
// 64 KiB: each batch is written on libuv's thread pool, and the wake-up, not the copy, is what a
// write costs (perf, passthrough: those threads' CPU 0.84 → 0.34 µs a request from 16 KiB to 64 KiB).
const BATCH = 65_536;

function bufferedStdout(): DestinationStream {
  const dest = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' });
  const sonic = dest as unknown as { destroyed: boolean };
  let batch = Buffer.allocUnsafe(BATCH);
  let used = 0;
  let ended = false;
  const write = dest.write.bind(dest) as unknown as (bytes: Buffer) => boolean;
  const direct = (bytes: Buffer) => {
    if (!sonic.destroyed) { write(bytes); return; }
    // SonicBoom leaves fd 1 open when it closes. A failed write (stdout closed) has nowhere to go.
    try { writeSync(1, bytes); } catch { /* dropped */ }
  };
  const handOver = () => {
    if (!used) return;
    const bytes = batch.subarray(0, used);
    batch = Buffer.allocUnsafe(BATCH); // SonicBoom keeps the handed buffer until it is written
    used = 0;
    direct(bytes);
  };
  dest.write = (line: string) => {
    if (ended || sonic.destroyed) { handOver(); direct(Buffer.from(line)); return true; }
    // A string of n UTF-16 units takes at most 3n bytes of UTF-8.
    if (used + 3 * line.length > BATCH) {
      handOver();
      if (3 * line.length > BATCH) { direct(Buffer.from(line)); return true; }
    }
    used += batch.write(line, used);
    return true;
  };
  const flush = dest.flush.bind(dest), flushSync = dest.flushSync.bind(dest), end = dest.end.bind(dest);
  dest.flush = (cb?: (err?: Error) => void) => { handOver(); flush(cb); };
  dest.flushSync = () => { handOver(); flushSync(); };
  dest.end = () => { handOver(); ended = true; clearInterval(timer); end(); };
  const timer = setInterval(handOver, FLUSH_MS).unref();
  return dest;
}

/** pino's isoTime without formatting a Date per line: the text up to the second is made once a second. */
let second = -1, prefix = '';
function isoTime(): string {
  const now = Date.now();
  const ms = now % 1000;
  if (now - ms !== second) { second = now - ms; prefix = `,"time":"${new Date(second).toISOString().slice(0, 20)}`; }
  return `${prefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}

/** pino-pretty is loaded only when asked for (SERVICE__LOG_PRETTY=1); a bundle leaves it out, and may
 *  run from a folder with no node_modules (`serve` imports its bundle from a temp folder), so it is
 *  looked up from this module and then from the started script (the CLI, or server.mjs). */
function prettyStream(): DestinationStream {
  const from = [import.meta.url, ...(process.argv[1] ? [pathToFileURL(process.argv[1]).href] : [])];
  for (const base of from) {
    let pretty: (o: object) => DestinationStream;
    try { pretty = createRequire(base)('pino-pretty') as typeof pretty; } catch { continue; }
    return pretty({ colorize: true, translateTime: 'SYS:standard', ignore: 'pid,hostname' });
  }
  throw new Error('SERVICE__LOG_PRETTY=1 needs the pino-pretty package next to the server (npm install pino-pretty), or unset it for JSON lines');
}

/** Errors (alone or as a field) become plain data with their stack, so the redactor reaches them. */
function withErrors(a: unknown): unknown {
  const plain = (e: Error) => ({ type: e.name, message: e.message, stack: e.stack ?? '' });
  if (a instanceof Error) return { err: plain(a) };
  if (!a || typeof a !== 'object' || Array.isArray(a)) return a;
  let errors = false;
  for (const k in a) if ((a as Record<string, unknown>)[k] instanceof Error) { errors = true; break; }
  if (!errors) return a; // most lines: nothing to copy
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v instanceof Error ? plain(v) : v]));
}

/** The log of a one-shot run (`pipewright run`): the server's lines, settings and redaction, on
 *  standard error (standard output carries the response body). Written synchronously: the command
 *  exits right after its run. */
export function stderrLogger(settings: LogSettings, redact: Redactor): Logger {
  return createLogger({ ...settings, pretty: false }, redact, pino.destination({ dest: 2, sync: true }));
}

/** A logger that writes nothing (tests). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
