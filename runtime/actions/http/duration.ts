// The one duration parser lives in runtime/values/duration.ts.
export { durationMs as parseDuration } from '../../values/duration.ts';
