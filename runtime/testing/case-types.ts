// A hermetic test case as `*.tests.yaml` holds it (the file format: docs/test-cases.md).
// Plain JSON after loading and checking (cli/test-cases.ts); run by ./run-case.ts.

import type { TransportClass } from '../run-state.ts';
import type { RefusalStatus } from '../refused.ts';

/** One result of an outbound action: its data, or the error it fails with (a transport failure of
 *  `transport`'s class, a refusal with `refused`'s status, else a status failure with `status`, else
 *  a plain one). */
export interface StandInResult {
  data?: unknown;
  error?: string;
  transport?: TransportClass;
  refused?: RefusalStatus;
  status?: number;
  headers?: Record<string, string>;
}

export interface Recording {
  request: { method?: string; url: string; body?: unknown; headers?: Record<string, string> };
  response: { status?: number; headers?: Record<string, string>; body?: unknown };
  times?: number;
}

export interface ScriptedCallback {
  action: string;
  body?: unknown;
  timeout?: true;
}

export interface PublishedExpectation {
  mqtt?: string;
  ws?: string;
  email?: Record<string, unknown>;
  metric?: string;
  message?: unknown;
  value?: number;
  labels?: Record<string, string>;
}

export interface CaseExpect {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  body_includes?: unknown;
  body_schema?: unknown;
  jq?: string;
  jsonpath?: string;
  published?: PublishedExpectation[];
}

/** One tick of a `schedule:` case given as a list: what its answer and its publishes must be. */
export interface ScheduleTick {
  expect?: CaseExpect;
}

/** `ticks`: how many ticks run, or one entry per tick, each with its own expectations. */
export interface CaseSchedule { from?: string; ticks: number | ScheduleTick[] }

export interface CaseRequest {
  method?: string;
  params?: Record<string, string | number | boolean>;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  body?: unknown;
  raw_body?: string;
}

export interface TestCase {
  name: string;
  interface: string;
  request?: CaseRequest;
  /** Run the interface at its schedule's next ticks after `from` (ISO time; default the case
   *  epoch), as the scheduler would: ./ticks.ts. */
  schedule?: CaseSchedule;
  http?: Recording[];
  actions?: Record<string, StandInResult | StandInResult[]>;
  callbacks?: ScriptedCallback[];
  expect?: CaseExpect;
}

/** A loaded cases file: its values for every case and its cases, each tied to its interface. */
export interface CaseFile {
  file: string;
  vars?: Record<string, string>;
  secrets?: Record<string, string>;
  env?: Record<string, string>;
  /** Each case with the config and interface its `interface` names, resolved at load. */
  cases: Array<TestCase & { config: string; iface: string; line: number }>;
}
