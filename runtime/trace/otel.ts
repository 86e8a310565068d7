// Runs and action attempts as OpenTelemetry spans, exported over OTLP/HTTP (JSON) to
// OTEL_EXPORTER_OTLP_ENDPOINT (the exporter reads the standard OTEL_EXPORTER_OTLP_* settings). Loaded
// by a dynamic import only when tracing is on (runtime/trace/settings.ts). Contexts are passed
// explicitly (no context manager, no async hooks): a run's span is found by its run state.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { RunState } from '../run-state.ts';
import type { AttemptSpan, RunTracer, TraceHeaders } from '../tracing.ts';

const propagator = new W3CTraceContextPropagator();
type Carrier = Readonly<Record<string, unknown>>;
const getter: TextMapGetter<Carrier> = {
  keys: (c) => Object.keys(c),
  // Only text values: a header given twice (an array) or a non-text MQTT property is not a context.
  get: (c, k) => { const v = Object.hasOwn(c, k) ? c[k] : undefined; return typeof v === 'string' ? v : undefined; },
};
const setter: TextMapSetter<Record<string, string>> = { set: (c, k, v) => { c[k] = v; } };

export interface TracingOptions {
  serviceName: string;
  /** The node's name (resource attribute service.instance.id). */
  node: string;
  /** The traces URL; unset: the exporter's own reading of OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT. */
  url?: string;
  /** Export delay of the batch processor, ms (OTEL_BSP_SCHEDULE_DELAY otherwise). */
  scheduleDelayMs?: number;
}

export function startTracing(o: TracingOptions): RunTracer & { flush(): Promise<void> } {
  const exporter = new OTLPTraceExporter(o.url ? { url: o.url } : {});
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': o.serviceName, 'service.instance.id': o.node }),
    spanProcessors: [new BatchSpanProcessor(exporter, o.scheduleDelayMs !== undefined ? { scheduledDelayMillis: o.scheduleDelayMs } : {})],
  });
  const tracer = provider.getTracer('pipewright');
  // A run state's current span (its segment on this node).
  const spans = new WeakMap<RunState, Span>();
  const headersOf = (ctx: Context): TraceHeaders => {
    const c: Record<string, string> = {};
    propagator.inject(ctx, c, setter);
    return c.tracestate ? { traceparent: c.traceparent!, tracestate: c.tracestate } : { traceparent: c.traceparent! };
  };
  return {
    startRun(run, parent, resumedBy, link) {
      const ctx = parent ? propagator.extract(ROOT_CONTEXT, parent, getter) : ROOT_CONTEXT;
      const linked = link ? trace.getSpanContext(propagator.extract(ROOT_CONTEXT, link, getter)) : undefined;
      const span = tracer.startSpan(`run ${run.config}.${run.iface}`, {
        ...(linked ? { links: [{ context: linked }] } : {}),
        kind: run.trigger === 'http' && !resumedBy ? SpanKind.SERVER : SpanKind.INTERNAL,
        attributes: {
          'pipewright.run_id': run.id, 'pipewright.config': run.config, 'pipewright.interface': run.iface, 'pipewright.trigger': run.trigger,
          ...(resumedBy ? { 'pipewright.resumed_by': resumedBy } : {}),
        },
      }, ctx);
      spans.set(run, span);
      run.trace = headersOf(trace.setSpan(ROOT_CONTEXT, span));
    },
    endRun(run, httpStatus, error) {
      const span = spans.get(run);
      if (!span) return;
      spans.delete(run);
      span.setAttribute('pipewright.status', run.status);
      if (httpStatus !== undefined) span.setAttribute('http.response.status_code', httpStatus);
      if (run.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, ...(error ? { message: error } : {}) });
      if (run.status === 'suspended' && run.wake) span.addEvent('suspended', { 'pipewright.wake.reason': run.wake.reason, 'pipewright.action': run.wake.action, ...(run.wake.at ? { 'pipewright.wake.at': run.wake.at } : {}) });
      span.end();
    },
    startAttempt(run, action, kind, attempt): AttemptSpan | undefined {
      const parent = spans.get(run);
      if (!parent) return undefined;
      const span = tracer.startSpan(`action ${action}`, {
        kind: kind === 'http' ? SpanKind.CLIENT : SpanKind.INTERNAL,
        attributes: { 'pipewright.run_id': run.id, 'pipewright.action': action, 'pipewright.action.kind': kind, 'pipewright.attempt': attempt },
      }, trace.setSpan(ROOT_CONTEXT, parent));
      return {
        headers: headersOf(trace.setSpan(ROOT_CONTEXT, span)),
        end(outcome, error, status) {
          span.setAttribute('pipewright.outcome', outcome);
          if (status !== undefined) span.setAttribute('http.response.status_code', status);
          if (outcome === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, ...(error ? { message: error } : {}) });
          span.end();
        },
      };
    },
    retryWait(run, action, attempt, waitMs) {
      spans.get(run)?.addEvent('retry wait', { 'pipewright.action': action, 'pipewright.attempt': attempt, 'pipewright.next_attempt': attempt + 1, 'pipewright.wait_ms': waitMs });
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
