// Which kind an action is: the field that is set (the table is compiler/schema/action-kinds.ts; the
// load refuses an action that sets two kinds). One runtime/actions file per kind.
import type { Action } from '../schema/config-types.ts';
import { KINDS, kindOf } from '../schema/action-kinds.ts';

export { KINDS };

export const actionKind = (a: Action): string => kindOf(a);
