// The action kinds this build runs, by name. `lookup` is run by the executor itself (it nests actions).
import type { ActionKind } from './types.ts';
import { http } from './http.ts';
import { input } from './input.ts';
import { onlyNew } from './only-new.ts';
import { state } from './state.ts';
import { delay } from './delay.ts';
import { waitForCallback } from './wait-for-callback.ts';
import { agent } from './agent/index.ts';
import { wsPublish } from './ws-publish.ts';
import { emitMetric } from './emit-metric.ts';
import { mqttPublish } from './mqtt-publish.ts';

export const actionKinds: Record<string, ActionKind> = { http, input, delay, wait_for_callback: waitForCallback, state, only_new: onlyNew, agent, ws_publish: wsPublish, emit_metric: emitMetric, mqtt_publish: mqttPublish };

export const supportedKinds: readonly string[] = [...Object.keys(actionKinds), 'lookup'];
