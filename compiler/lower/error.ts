// A config the schema accepts but lowering cannot: the message goes out at `path`'s position.
import { optionalDurationMs } from '../../runtime/values/duration.ts';

export type Path = Array<string | number>;

export class LowerError extends Error {
  constructor(message: string, public path: Path, public hint?: string) {
    super(message);
  }
}

/** A duration fixed at compile time, in milliseconds; a bad one is refused at its field. */
export function durationAt(v: unknown, at: Path): number | undefined {
  try {
    return optionalDurationMs(v);
  } catch (e) {
    throw new LowerError((e as Error).message, at, 'durations here are fixed when the config is compiled; markers are not read');
  }
}
