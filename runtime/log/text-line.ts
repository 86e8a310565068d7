// A line written as text, as pino writes it — pino's cached level prefix, its time, its bindings,
// then each field, the message and its line end — without pino's per-call work (the logMethod hook's
// copy and redaction of each argument, argument handling, mixins, the generic serialiser: 2 KB of
// intermediate strings a line). One request line per request showed in profiles. Strings are
// JSON.stringify's, which pino's own short-string path matches byte for byte but for a lone surrogate
// (escaped here, as JSON needs; jsonString: no call into V8's serialiser for a string that needs no
// escape). The request line (runtime/server/request-log.ts) is the one user; a line that may hold a
// secret goes pino's way, redacted.
import pino, { type DestinationStream, type Logger } from 'pino';
import { jsonString } from '../values/json-string.ts';
import { redactorOfLogger } from './logger.ts';

export interface TextLines {
  /** pino's start of a line at `level` (level text, time, bindings); null below the logger's level
   *  (write nothing); undefined for a level this logger does not know (go pino's way). */
  start(level: pino.Level): string | null | undefined;
  /** `,"key":` */
  key(k: string): string;
  /** The message and the line's end. */
  end(msg: string): string;
  /** True when `text` holds none of the secrets, as is or JSON-escaped (the logger's redactor). */
  clean(text: string): boolean;
  write(text: string): void;
}

const { lsCacheSym, chindingsSym, endSym, messageKeySym, timeSym, streamSym, needsMetadataGsym } = pino.symbols;
type Internals = Record<symbol, unknown>;

const made = new WeakMap<Logger, TextLines | null>();

/** Text lines for a logger made by createLogger; undefined for any other, or one whose destination
 *  wants pino's metadata (pretty printing): their lines always go pino's way. */
export function textLines(log: Logger): TextLines | undefined {
  let t = made.get(log);
  if (t === undefined) made.set(log, (t = make(log)));
  return t ?? undefined;
}

function make(log: Logger): TextLines | null {
  const redact = redactorOfLogger(log);
  const l = log as unknown as Internals;
  const stream = l[streamSym] as DestinationStream & Internals;
  if (!redact || stream[needsMetadataGsym]) return null;
  return {
    start(level) {
      const num = log.levels.values[level];
      if (num === undefined) return undefined;
      if (!log.isLevelEnabled(level)) return null;
      // Read each time: a logger's level cache, clock and bindings are pino's to change.
      return (l[lsCacheSym] as Record<number, string>)[num]! + (l[timeSym] as () => string)() + (l[chindingsSym] as string);
    },
    key: keyText,
    end: (msg) => keyText(l[messageKeySym] as string) + jsonString(msg) + (l[endSym] as string),
    clean: (text) => redact.cleanText(text),
    write: (text) => { stream.write(text); },
  };
}

/** A number as JSON writes it (a non-finite one as null). */
export const numberText = (v: number): string => (Number.isFinite(v) ? String(v) : 'null');

/** `,"key":` (made once per key by the caller: runtime/server/request-log.ts). */
const keyText = (k: string): string => `,${JSON.stringify(k)}:`;
