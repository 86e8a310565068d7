export { createCapture, replay, notReplayableBecause, ReplayError, type Capture, type ReplayOptions } from './capture.ts';
export { registerCaptureRoutes, type CaptureRouteOptions } from './routes.ts';
export { redactRun, redactSecrets, REDACTED, CREDENTIAL_HEADERS } from '../values/redact.ts';
export { captureSetting, type CaptureSetting, type CaptureMode } from './setting.ts';
