// A test case's expectations against the run's response and what it published. Each failed
// expectation is one problem saying what was expected, what came, and where in the body.
import { Ajv } from 'ajv';
import { isDeepStrictEqual } from 'node:util';
import { jqAllAsync } from '../jq/engine.ts';
import { jsonPathAll } from '../jsonpath/query.ts';
import type { CaseExpect, PublishedExpectation } from './case-types.ts';
import type { Published } from './captures.ts';

export interface Answer { status: number; headers: Record<string, string>; body: unknown }

export async function checkExpect(e: CaseExpect, r: Answer, published: readonly Published[]): Promise<string[]> {
  const problems: string[] = [];
  if (e.status !== undefined && r.status !== e.status) problems.push(`status: expected ${e.status}, got ${r.status}: ${short(r.body)}`);
  // Without expect.status a case expects success, as an interface's example does.
  if (e.status === undefined && r.status >= 400) problems.push(`status ${r.status} (set expect.status to expect a failure): ${short(r.body)}`);
  for (const [name, want] of Object.entries(e.headers ?? {})) {
    const got = Object.entries(r.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    if (got !== want) problems.push(`header ${name}: expected ${JSON.stringify(want)}, got ${got === undefined ? 'none' : JSON.stringify(got)}`);
  }
  if (e.body !== undefined) {
    const d = difference(e.body, r.body, '', false);
    if (d) problems.push(`body: ${d}`);
  }
  if (e.body_includes !== undefined) {
    const d = difference(e.body_includes, r.body, '', true);
    if (d) problems.push(`body_includes: ${d}`);
  }
  if (e.body_schema !== undefined) {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(e.body_schema as object);
    if (!validate(r.body)) problems.push(`body_schema: ${validate.errors!.map((x) => `${x.instancePath || '/'} ${x.message}`).join('; ')}`);
  }
  if (e.jq !== undefined) {
    try {
      const out = await jqAllAsync(e.jq, r.body);
      if (!out.length || out.some((v) => v !== true)) problems.push(`jq ${e.jq}: expected true, got ${out.length ? out.map(short).join(', ') : 'no output'}`);
    } catch (x) { problems.push(`jq ${e.jq}: ${(x as Error).message.split('\n')[0]}`); }
  }
  if (e.jsonpath !== undefined && !jsonPathAll(e.jsonpath, r.body).length) problems.push(`jsonpath ${e.jsonpath}: selects nothing in ${short(r.body)}`);
  // An empty list says nothing was published (a list of entries allows others between them).
  if (e.published?.length === 0 && published.length) problems.push(`published: expected nothing; captured: ${published.map(describe).join('; ')}`);
  else problems.push(...checkPublished(e.published ?? [], published));
  return problems;
}

/** Each expected entry matches a later captured message of its kind than the one before it did
 *  (order kept per kind; other messages may come between). */
function checkPublished(want: readonly PublishedExpectation[], got: readonly Published[]): string[] {
  const problems: string[] = [];
  const from: Record<string, number> = {};
  for (const w of want) {
    const kind = w.mqtt !== undefined ? 'mqtt' : w.ws !== undefined ? 'ws' : w.email !== undefined ? 'email' : 'metric';
    const of = got.map((p, n) => [p, n] as const).filter(([p]) => p.kind === kind);
    const hit = of.find(([p, n]) => n >= (from[kind] ?? 0) && matches(w, p));
    if (hit) { from[kind] = hit[1] + 1; continue; }
    const seen = of.map(([p]) => describe(p)).join('; ');
    problems.push(`published: no ${describe(w)}${from[kind] ? ' after the one matched before' : ''}; ${kind} captured: ${seen || 'none'}`);
  }
  return problems;
}

function matches(w: PublishedExpectation, p: Published): boolean {
  if (p.kind === 'email') return difference(w.email, p.email, '', true) === undefined;
  if (p.to !== (w.mqtt ?? w.ws ?? w.metric)) return false;
  if (p.kind === 'metric') return (w.value === undefined || w.value === p.value) && (w.labels === undefined || difference(w.labels, p.labels, '', true) === undefined);
  return w.message === undefined || difference(w.message, p.message, '', true) === undefined;
}

function describe(p: PublishedExpectation | Published): string {
  if ('kind' in p) {
    if (p.kind === 'email') return `email ${short(p.email)}`;
    if (p.kind === 'metric') return `metric ${p.to} ${p.value} ${short(p.labels)}`;
    return `${p.kind} ${p.to} ${short(p.message)}`;
  }
  if (p.email !== undefined) return `email matching ${short(p.email)}`;
  if (p.metric !== undefined) return `metric ${p.metric}${p.value !== undefined ? ` = ${p.value}` : ''}${p.labels ? ` ${short(p.labels)}` : ''}`;
  return `${p.mqtt !== undefined ? `mqtt message on ${p.mqtt}` : `ws message on ${p.ws}`}${p.message !== undefined ? ` matching ${short(p.message)}` : ''}`;
}

/** Where `got` first differs from `want`, or undefined. `subset`: objects by the keys `want` has,
 *  arrays element by element with the same length. */
export function difference(want: unknown, got: unknown, at: string, subset: boolean): string | undefined {
  const here = at || '/';
  if (want !== null && typeof want === 'object' && got !== null && typeof got === 'object' && Array.isArray(want) === Array.isArray(got)) {
    if (Array.isArray(want)) {
      const g = got as unknown[];
      if (want.length !== g.length) return `at ${here}: expected ${want.length} items, got ${g.length}: ${short(got)}`;
      for (let k = 0; k < want.length; k++) { const d = difference(want[k], g[k], `${at}/${k}`, subset); if (d) return d; }
      return undefined;
    }
    const w = want as Record<string, unknown>, g = got as Record<string, unknown>;
    for (const k of Object.keys(w)) {
      if (!Object.hasOwn(g, k)) return `at ${at}/${k}: expected ${short(w[k])}, got no such key`;
      const d = difference(w[k], g[k], `${at}/${k}`, subset);
      if (d) return d;
    }
    if (!subset) { const extra = Object.keys(g).find((k) => !Object.hasOwn(w, k)); if (extra !== undefined) return `at ${at}/${extra}: unexpected key (value ${short(g[extra])})`; }
    return undefined;
  }
  return isDeepStrictEqual(want, got) ? undefined : `at ${here}: expected ${short(want)}, got ${short(got)}`;
}

const short = (v: unknown): string => {
  const t = v === undefined ? 'nothing' : JSON.stringify(v);
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
};
