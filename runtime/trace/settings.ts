// Whether tracing is on: the standard OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set, and
// neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says otherwise. Off, nothing of
// OpenTelemetry is loaded (runtime/server/main.ts imports runtime/trace/otel.ts only when on).
type Env = Record<string, string | undefined>;

export function tracingWanted(env: Env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((x) => x.trim().toLowerCase()).includes('otlp');
}

/** service.name: OTEL_SERVICE_NAME, else "pipewright". */
export const serviceName = (env: Env): string => env.OTEL_SERVICE_NAME?.trim() || 'pipewright';
