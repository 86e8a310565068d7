import { loadConfig } from '../../compiler/load/index.ts';

/** Diagnostics of a config as compact records, easy to compare exactly. */
export function check(text: string, file = 'test.yaml') {
  return loadConfig(file, text).diagnostics.map((d) => ({
    at: `${d.line}:${d.col}`,
    severity: d.severity,
    message: d.message,
    ...(d.hint ? { hint: d.hint } : {}),
  }));
}

/** Wraps action YAML (indented for a list item under `actions:`) into a one-interface config. */
export function withActions(actions: string, extra = ''): string {
  return `${extra}interfaces:\n  orders:\n    actions:\n${actions}`;
}

/** Diagnostics other than the refusals of unbuilt fields: lints of fields kept for when they are built. */
export function checkLints(text: string, file = 'test.yaml') {
  return check(text, file).filter((d) => !d.message.endsWith('is not available in this build'));
}
