// `pipewright test`'s entry into the runtime's test support (hermetic cases). Only cli/test-cmd.ts and
// cli/test-cases.ts import it; nothing `serve` loads reaches this folder (test/architecture checks).
export { runCase, type CaseLimits } from './run-case.ts';
export { CASE_EPOCH, fromOfTickRun, MAX_TICKS, tickCount, ticksAfter } from './ticks.ts';
export { sealGlobalDispatcher } from './http-replay.ts';
export { kindClass, KIND_CLASSES, type KindClass } from './stand-ins.ts';
export type { CaseExpect, CaseFile, TestCase, StandInResult, Recording } from './case-types.ts';
export { jqCompileError } from '../jq/engine.ts';
export type { CaseHooks } from './run-case.ts';
export type { StandIns } from './stand-ins.ts';
// `--record` and `--from-run` (cli/test-record.ts, cli/from-run.ts).
export { Recorder, type CaseRecording } from './record.ts';
export { readRecordings, secretsOf, unredacted, writeRecordings } from './recordings-file.ts';
export { isHttpStatus, runFromServer, runFromStore, RunSourceError, type RunDetail } from './run-source.ts';
export { isJsonType } from '../server/request.ts';
export { isTransportClass, TRANSPORT_CLASSES, type TransportClass } from '../run-state.ts';
export { isRefusalStatus, REFUSAL_STATUSES, type RefusalStatus } from '../refused.ts';
