// The action kinds this build runs, by name. `lookup` is run by the executor itself (it nests actions).
import type { ActionKind } from './types.ts';
import { http } from './http.ts';
import { input } from './input.ts';

export const actionKinds: Record<string, ActionKind> = { http, input };

export const supportedKinds: readonly string[] = [...Object.keys(actionKinds), 'lookup'];
