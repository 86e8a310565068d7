// Operational logs: pino (fastify's own logger), one JSON object per line on stdout, or coloured
// lines through pino-pretty. Every argument of every line passes the process's redactor first, so a
// secret that reached an error message, a header or a config log message is never written.
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Redactor } from '../values/redact.ts';

export type { Logger } from 'pino';

export interface LogSettings {
  level: string;
  pretty: boolean;
}

export function createLogger(settings: LogSettings, redact: Redactor, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: settings.level,
    base: undefined, // no pid/hostname on every line: the node name goes in the start line
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => redact(withErrors(a))) as Parameters<typeof method>);
      },
    },
  };
  return pino(options, destination ?? (settings.pretty ? prettyStream() : bufferedStdout()));
}

/** Lines are written 4 KiB at a time (one write per line showed in profiles under load), and at
 *  least every FLUSH_MS, so a quiet service's lines still appear at once; pino flushes what is
 *  left when the process exits. */
const FLUSH_MS = 100;

function bufferedStdout(): DestinationStream {
  const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  let pending = false;
  const write = dest.write.bind(dest);
  dest.write = (line: string) => { pending = true; return write(line); };
  setInterval(() => {
    if (!pending || (dest as unknown as { destroyed: boolean }).destroyed) return;
    pending = false;
    dest.flush();
  }, FLUSH_MS).unref();
  return dest;
}

/** pino-pretty is loaded only when asked for (SERVICE__LOG_PRETTY=1); a bundle may leave it out. */
function prettyStream(): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (o: object) => DestinationStream;
  return pretty({ colorize: true, translateTime: 'SYS:standard', ignore: 'pid,hostname' });
}

/** Errors (alone or as a field) become plain data with their stack, so the redactor reaches them. */
function withErrors(a: unknown): unknown {
  const plain = (e: Error) => ({ type: e.name, message: e.message, stack: e.stack ?? '' });
  if (a instanceof Error) return { err: plain(a) };
  if (!a || typeof a !== 'object' || Array.isArray(a)) return a;
  if (!Object.values(a).some((v) => v instanceof Error)) return a; // most lines: nothing to copy
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v instanceof Error ? plain(v) : v]));
}

/** A logger that writes nothing (tests, `pipewright run`). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
