// An action with no fetching kind: its data is its resolved `input` (null when it has none).
import type { ActionKind } from './types.ts';

export const input: ActionKind = async (_config, ctx) => ({ ok: true, data: ctx.input === undefined ? null : ctx.input });
