// Loads the OpenTelemetry tracer when tracing is on. In a bundle this module is replaced
// (compiler/bundle/slim.ts): the tracer and its packages are a file of their own beside the bundle,
// so a bundle does not carry them, or evaluate them, while tracing is off.
export const loadTracing = () => import('./otel.ts');
