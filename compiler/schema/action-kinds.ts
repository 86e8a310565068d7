// Which field of an action chooses its kind, in one table read by lowering (which kind runs) and by
// the load's lint (one kind per action: a second kind would be silently ignored).
import type { Action } from './config-types.ts';

export const KINDS: ReadonlyArray<[field: keyof Action, kind: string]> = [
  // document_operation before database: a document operation may name its database on the action.
  ['lookup', 'lookup'], ['http', 'http'], ['url', 'http'], ['query', 'database'], ['document_operation', 'document_operation'], ['database', 'database'],
  ['command', 'command'], ['sftp', 'sftp'], ['email', 'email'], ['state', 'state'], ['only_new', 'only_new'],
  ['discover', 'discover'], ['delay', 'delay'], ['wait_for_callback', 'wait_for_callback'], ['agent', 'agent'],
  ['emit_metric', 'emit_metric'], ['ws_publish', 'ws_publish'],
  ['mqtt_publish', 'mqtt_publish'], ['aws', 'aws'], ['google', 'google'],
];

/** Kind fields that also complete another kind: `database` names the pool of a `query` or a
 *  `document_operation`. (`url` beside `http` is the same kind.) */
export const COMPANIONS: ReadonlyArray<[field: keyof Action, of: ReadonlyArray<keyof Action>]> = [
  ['database', ['query', 'document_operation']],
];
