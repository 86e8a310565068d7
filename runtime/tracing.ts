// The tracing contract the executor calls (runtime/trace/otel.ts implements it with OpenTelemetry,
// loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set). Absent from Services when tracing is off:
// then every call site is one property test.
import type { RunState } from './run-state.ts';

/** W3C trace context headers (https://www.w3.org/TR/trace-context/): what a span hands on. */
export interface TraceHeaders { traceparent: string; tracestate?: string }

export interface RunTracer {
  /** A run starts, or continues after a suspension or a takeover: its span, a child of `parent` (an
   *  inbound request's headers, or the run's own stored context), and the run state's `trace` set to
   *  the span's context so a later segment on any node continues the same trace. `link`: headers
   *  whose context the span links to (a callback's resume request). */
  startRun(run: RunState, parent: Readonly<Record<string, unknown>> | undefined, resumedBy?: string, link?: Readonly<Record<string, unknown>>): void;
  /** The run's segment ended: finished, failed or suspended. */
  endRun(run: RunState, httpStatus: number | undefined, error?: string): void;
  /** One attempt of an action: its span, and the headers an outbound call of it carries. */
  startAttempt(run: RunState, action: string, kind: string, attempt: number): AttemptSpan | undefined;
  /** A retry wait (or a suspension between attempts): an event on the run's span. */
  retryWait(run: RunState, action: string, attempt: number, waitMs: number): void;
  /** Exports what is left (shutdown). */
  shutdown(): Promise<void>;
}

export interface AttemptSpan {
  readonly headers: TraceHeaders;
  end(outcome: 'succeeded' | 'failed' | 'skipped' | 'suspended', error?: string, status?: number): void;
}

/** The trace headers an outbound call adds beside `configured` ones: none when a configured header
 *  (any case) sets traceparent (it wins, and a tracestate belongs to its traceparent), and no
 *  tracestate when one is configured. Tracing off: none. */
export function traceHeadersBeside(trace: TraceHeaders | undefined, configured: Readonly<Record<string, string>>): Partial<TraceHeaders> {
  if (!trace) return {};
  let state = trace.tracestate !== undefined;
  for (const k of Object.keys(configured)) {
    const n = k.toLowerCase();
    if (n === 'traceparent') return {};
    if (n === 'tracestate') state = false;
  }
  return state ? trace : { traceparent: trace.traceparent };
}
