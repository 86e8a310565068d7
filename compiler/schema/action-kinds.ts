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

/** An action's kind: the first kind field it sets (no kind field: an input action). */
export function kindOf(a: Partial<Record<keyof Action, unknown>>): string {
  for (const [field, kind] of KINDS) if (a[field] !== undefined) return kind;
  return 'input';
}

/** The kinds that read an action's `input` (and its fallbacks): the input kind's data, an agent's
 *  user message, the records only_new filters. Every other kind ignores it. */
const INPUT_READERS = ['input', 'agent', 'only_new'] as const;

/** Action fields that only some kinds read: beside another kind they would do nothing, so the
 *  load refuses them (compiler/load/lint-actions.ts); `what` names those kinds in the message. */
export const KIND_FIELDS: ReadonlyArray<{ field: keyof Action; kinds: readonly string[]; what: string }> = [
  ...(['actions', 'item_timeout', 'lookup_concurrency', 'lookup_max_items', 'lookup_partition', 'lookup_inherit_jq', 'lookup_inherit'] as const).map((field) => ({ field, kinds: ['lookup'], what: 'lookup' })),
  { field: 'params', kinds: ['database'], what: 'SQL query' },
  { field: 'multi', kinds: ['database'], what: 'SQL query' },
  { field: 'conn_string', kinds: ['database', 'document_operation'], what: 'SQL query and document_operation' },
  { field: 'output_stdout', kinds: ['command'], what: 'command' },
  { field: 'expect_exit', kinds: ['command'], what: 'command' },
  ...(['input', 'input_fallbacks', 'conditional_input'] as const).map((field) => ({ field, kinds: INPUT_READERS, what: 'input, agent and only_new' })),
];

/** Kind fields that also complete another kind: `database` names the pool of a `query` or a
 *  `document_operation`. (`url` beside `http` is the same kind.) */
export const COMPANIONS: ReadonlyArray<[field: keyof Action, of: ReadonlyArray<keyof Action>]> = [
  ['database', ['query', 'document_operation']],
];
