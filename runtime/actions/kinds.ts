// The action kinds this build runs, by name alone: the compiler refuses the others at load without
// importing any implementation. ./index.ts maps each to its implementation (typed to match this list).
export const BUILT_KINDS = ['http', 'input', 'delay', 'wait_for_callback', 'state', 'only_new', 'database', 'document_operation', 'agent', 'ws_publish', 'emit_metric', 'mqtt_publish', 'sftp', 'discover', 'command', 'email', 'aws', 'google', 'lookup'] as const;

export type BuiltKind = (typeof BUILT_KINDS)[number];
