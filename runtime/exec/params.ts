// Declared params: value (a marker), else the request's parameter of that name, else default_value;
// then `validate`. A failure answers 400 with the param's error_message.
import type { ParamPlan } from '../plan.ts';
import type { Scope } from '../scope.ts';
import { text } from '../values/text.ts';
import { setOwn } from '../values/build.ts';

export type ParamCheck = { ok: true } | { ok: false; param: string; message: string };

export async function resolveParams(params: ParamPlan[], s: Scope): Promise<ParamCheck> {
  for (const p of params) {
    const raw = p.value ? p.value(s) : s.params[p.name];
    const value = raw === undefined || raw === null || raw === '' ? p.default : text(raw);
    if (value !== undefined) setOwn(s.params, p.name, value);
    if (!p.validate) continue;
    const r = await p.validate(value ?? null, s);
    // Stryker disable next-line StringLiteral: unreachable, runTest gives every failed check a message
    if (!r.ok) return { ok: false, param: p.name, message: p.errorMessage ?? `invalid parameter "${p.name}": ${r.message ?? 'validation failed'}` };
  }
  return { ok: true };
}
