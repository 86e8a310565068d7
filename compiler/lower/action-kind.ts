// Which kind an action is: the field that is set. One runtime/actions file per kind.
import type { Action } from '../schema/config-types.ts';

export const KINDS: ReadonlyArray<[field: keyof Action, kind: string]> = [
  // document_operation before database: a document operation may name its database on the action.
  ['lookup', 'lookup'], ['http', 'http'], ['url', 'http'], ['query', 'database'], ['document_operation', 'document_operation'], ['database', 'database'],
  ['command', 'command'], ['sftp', 'sftp'], ['email', 'email'], ['state', 'state'], ['only_new', 'only_new'],
  ['discover', 'discover'], ['delay', 'delay'], ['wait_for_callback', 'wait_for_callback'], ['agent', 'agent'],
  ['emit_metric', 'emit_metric'], ['ws_publish', 'ws_publish'],
  ['mqtt_publish', 'mqtt_publish'], ['aws', 'aws'], ['google', 'google'],
];

export function actionKind(a: Action): string {
  for (const [field, kind] of KINDS) if (a[field] !== undefined) return kind;
  return 'input';
}
