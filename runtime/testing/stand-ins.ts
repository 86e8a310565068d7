// The hooks through which `pipewright test` runs an interface hermetically (issue 32 §1). They are
// one optional Services field, `standIns`, set only by the test harness (runtime/testing/, driven by
// cli/test-cmd.ts): `serve`, `run`, a config or a request cannot set it, and without it every hook
// below is one absent-field read.
//
//  - dispatcher: every outbound HTTP exchange (the http action and its pages, the agent's model
//    calls, its MCP client's fetches) is dispatched here instead of the keep-alive pools and the
//    dialer: an undici MockAgent with net connect disabled, so nothing is resolved or connected and a
//    request no recording matches fails, naming its method and URL.
//  - attempt: called at the start of every attempt of every action (fast path and interpreter alike,
//    nested lookup actions too: runtime/exec/action.ts `start`) with the action, its interpolated
//    settings and the attempt's context (a lookup has no settings: given a stand-in by name, it
//    answers with it and runs none of its items, `--from-run` writing them so). It answers the outcome to use instead of the kind's work (a
//    declared result, a captured email, a failure naming an outbound action that has no stand-in),
//    or undefined to let the kind run for real (in-process kinds; http and agent, whose traffic
//    goes to `dispatcher`). Its last argument runs the kind itself: a recorder (`--record`) calls it
//    against the real services and keeps the outcome. KIND_CLASSES says which kind is which: a kind added to the build without
//    a class fails the type check and test/testing/kind-classes.test.ts.
//  - The rest are ordinary Services fields given test implementations by the harness: `clock` a
//    virtual clock (./virtual-clock.ts: delays, retry waits and callback timeouts pass at once),
//    `channels`, `mqtt` and `metrics` capturing what is published, `store` a fresh in-memory store
//    per case that parks runs (./case-store.ts) so delays and wait_for_callback resume in process.
// The interface itself, StandIns, is declared beside Services (runtime/services.ts), the floor every
// layer reads; this folder implements it and is reachable only from `pipewright test` (./index.ts).
import type { BuiltKind } from '../actions/kinds.ts';

export type { StandIns } from '../services.ts';

/** How a kind is treated in a test: run as it is (`in-process`); run with its HTTP traffic sent to
 *  the recordings (`http`; an agent may also be stood in whole by name); answered from a declared or
 *  recorded result by action name, never run (`outbound`); or run against capturing services / recorded
 *  as published (`captured`: ws_publish, mqtt_publish, emit_metric through Services; email by the harness). */
export type KindClass = 'in-process' | 'http' | 'outbound' | 'captured';

export const KIND_CLASSES: Record<BuiltKind, KindClass> = {
  input: 'in-process', delay: 'in-process', wait_for_callback: 'in-process', state: 'in-process', only_new: 'in-process', lookup: 'in-process',
  http: 'http', agent: 'http',
  database: 'outbound', document_operation: 'outbound', sftp: 'outbound', discover: 'outbound', command: 'outbound', aws: 'outbound', google: 'outbound',
  email: 'captured', ws_publish: 'captured', mqtt_publish: 'captured', emit_metric: 'captured',
};

/** The class of a kind by name; undefined for a kind nobody classified (the harness fails it loudly). */
export const kindClass = (kind: string): KindClass | undefined => (Object.hasOwn(KIND_CLASSES, kind) ? KIND_CLASSES[kind as BuiltKind] : undefined);
