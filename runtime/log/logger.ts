// Operational logs: pino (fastify's own logger), one JSON object per line on stdout, or coloured
// lines through pino-pretty. Every argument of every line passes the process's redactor first, so a
// secret that reached an error message, a header or a config log message is never written.
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Redactor } from '../values/redact.ts';
import { jsonString } from '../values/json-string.ts';

export type { Logger } from 'pino';

export interface LogSettings {
  level: string;
  pretty: boolean;
}

export function createLogger(settings: LogSettings, redact: Redactor, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: settings.level,
    base: undefined, // no pid/hostname on every line: the node name goes in the start line
    timestamp: isoTime,
    formatters: { level: (label) => ({ level: label }) },
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
const { lsCacheSym, chindingsSym, endSym, messageKeySym, timeSym, streamSym, needsMetadataGsym } = pino.symbols;
type Internals = Record<symbol, unknown>;

/** A line of strings and finite numbers (undefined fields left out), written as pino writes it —
 *  pino's cached level prefix, its time, its bindings, then each field, the message and its line
 *  end — without pino's per-call work (the logMethod hook's copy and redaction of each argument,
 *  argument handling, mixins, the generic serialiser: 2 KB of intermediate strings a line). One
 *  request line per request showed in profiles. Strings are JSON.stringify's, which pino's own
 *  short-string path matches byte for byte but for a lone surrogate (escaped here, as JSON needs;
 *  jsonString: no call into V8's serialiser for a string that needs no escape).
 *  The redaction is one test of the finished text; a line that holds a secret goes the usual way,
 *  redacted. A logger not made by createLogger, or whose destination wants pino's metadata (pretty
 *  printing), always goes the usual way. */
export function writeFlatLine(log: Logger, level: pino.Level, fields: Record<string, string | number | undefined>, msg: string): void {
  const redact = redactors.get(log);
  const l = log as unknown as Internals;
  const stream = l[streamSym] as DestinationStream & Internals;
  if (!redact || stream[needsMetadataGsym]) { log[level](fields, msg); return; }
  const num = log.levels.values[level];
  if (num === undefined) { log[level](fields, msg); return; }
  if (!log.isLevelEnabled(level)) return;
  let text = (l[lsCacheSym] as Record<number, string>)[num]! + (l[timeSym] as () => string)() + (l[chindingsSym] as string);
  for (const k in fields) {
    const v = fields[k];
    if (v === undefined) continue;
    text += keyText(k) + (typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'null') : jsonString(v));
  }
  text += keyText(l[messageKeySym] as string) + jsonString(msg) + (l[endSym] as string);
  if (redact.cleanText(text)) stream.write(text);
  else log[level](fields, msg);
}

/** `,"key":` per field name (a handful: the request line's). */
const keys = new Map<string, string>();
function keyText(k: string): string {
  let t = keys.get(k);
  if (t === undefined && keys.size < 64) keys.set(k, (t = `,${JSON.stringify(k)}:`));
  return t ?? `,${JSON.stringify(k)}:`;
}

/** Lines are handed to pino's SonicBoom BATCH characters at a time (one write per line showed in
 *  profiles under load, and SonicBoom's own minLength re-measures its growing buffer on every
 *  line), and at least every FLUSH_MS, so a quiet service's lines still appear at once. flush,
 *  flushSync and end hand over what is batched first: pino's exit hook and shutdown lose nothing.
 *  Once ended, nothing is batched: a line goes to SonicBoom while it is still closing, then straight
 *  to stdout (a buffer nobody hands over would only grow). */
const FLUSH_MS = 100;
const BATCH = 16_384;

function bufferedStdout(): DestinationStream {
  const dest = pino.destination({ dest: 1, sync: false });
  const sonic = dest as unknown as { destroyed: boolean };
  const lines: string[] = [];
  let size = 0;
  let ended = false;
  const write = dest.write.bind(dest);
  const direct = (text: string) => {
    if (!sonic.destroyed) { write(text); return; }
    // SonicBoom leaves fd 1 open when it closes. A failed write (stdout closed) has nowhere to go.
    try { writeSync(1, text); } catch { /* dropped */ }
  };
  const handOver = () => {
    if (!lines.length) return;
    const text = lines.join('');
    lines.length = 0;
    size = 0;
    direct(text);
  };
  dest.write = (line: string) => {
    if (ended || sonic.destroyed) { handOver(); direct(line); return true; }
    lines.push(line);
    size += line.length;
    if (size >= BATCH) handOver();
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

/** A logger that writes nothing (tests, `pipewright run`). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
