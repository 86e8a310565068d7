// The action kinds this build runs, by name. `lookup` is run by the executor itself (it nests actions).
// Adding a kind: implement it here and add its name to ./kinds.ts (the type makes both agree).
import type { BuiltKind } from './kinds.ts';
import type { ActionKind } from './types.ts';
import { http } from './http.ts';
import { input } from './input.ts';
import { onlyNew } from './only-new.ts';
import { state } from './state.ts';
import { delay } from './delay.ts';
import { waitForCallback } from './wait-for-callback.ts';
import { database } from './database/action.ts';
import { documentOperation } from './document/action.ts';
import { agent } from './agent/index.ts';
import { wsPublish } from './ws-publish.ts';
import { emitMetric } from './emit-metric.ts';
import { mqttPublish } from './mqtt-publish.ts';
import { sftp } from './sftp/action.ts';
import { discover } from './discover/action.ts';
import { command } from './command/action.ts';
import { email } from './email/action.ts';
import { aws } from './cloud/aws.ts';
import { google } from './cloud/google.ts';

const kinds: Record<Exclude<BuiltKind, 'lookup'>, ActionKind> = { http, input, delay, wait_for_callback: waitForCallback, state, only_new: onlyNew, database, document_operation: documentOperation, agent, ws_publish: wsPublish, emit_metric: emitMetric, mqtt_publish: mqttPublish, sftp, discover, command, email, aws, google };

export const actionKinds: Record<string, ActionKind> = kinds;
