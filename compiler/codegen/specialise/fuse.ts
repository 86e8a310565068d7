// Fusion: consecutive filter / math stages of a chain, optionally ending in aggregate, over the same
// array (the data itself, or one `$.name` field of it) become one loop. No intermediate array, and
// math's fields stay in variables until something needs the record: an aggregate reads them from
// the variables, so math copies no record; a filter reading one, or an array result, writes the
// record out (one copy, as math alone makes). The loop is a fast path only: data of another shape
// (not the array, an element that is not a record, an array also reachable by an earlier key) or any
// error returns rt.sp.UNFUSED, and the chain then runs its stages one by one, which decide the result
// and report errors in each transform's words. Every element being a record, the loop reads a plain
// field name as a plain property (compiler/emit/plain-key.ts), with no null check.
import { Code, lit, member } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { aggregateItem, aggregateStart, aggregateSummary, type AggregatePlan } from './aggregate.ts';
import type { FilterCondition, FilterPlan } from './filter.ts';
import { mathValue, writeField, type MathPlan } from './math.ts';
import type { StagePlan } from './index.ts';
import type { Pick, RecordSet } from '../../jsonpath/records.ts';
import { declareWhere, listCall, pickCode, putCall } from './target.ts';
import { plainKey } from '../../emit/plain-key.ts';

/** A run of stages [from, to) fused into the function `name`. */
export interface Fused { from: number; to: number; name: Code }

/** The array a stage works on: '' for the data itself, else its normal form's identity
 *  (compiler/jsonpath/records.ts: every spelling of one array, `$.items`, `$['items']`, `items`, `$..items`,
 *  is one form); undefined when not fusable. Math on every element (`[*]`) is math on the array: the loop
 *  leaves any element that is not a record to the stages one by one. */
function formOf(p: StagePlan | undefined): { key: string; rs: RecordSet | undefined } | undefined {
  if (!p) return undefined;
  if (p.op === 'aggregate' && p.key !== undefined) return undefined;
  const rs = p.records;
  if (p.op === 'aggregate' ? !p.over : !p.target) return { key: '', rs: undefined };
  // A filter picking elements by `$` reads the whole data, which the loop is changing.
  if (!rs || (rs.pick?.k === 'where' && rs.pick.usesRoot)) return undefined;
  return { key: rs.list, rs };
}

/** A pick of elements by position counted from the end (negative bounds, steps or indices) needs the
 *  array's length at its stage: known in the loop only when no filter before it drops elements. */
const needsLength = (p: Pick | undefined): boolean =>
  p?.k === 'positions' && p.parts.some((x) => (typeof x === 'number' ? x < 0 : x[2] < 1 || (x[0] ?? 0) < 0 || (x[1] ?? 0) < 0));

/** Math writing the field `$..name` looks for puts new places under it: the loop, which found the array
 *  once, would miss them. */
const writesName = (p: StagePlan, rs: RecordSet | undefined): boolean =>
  !!rs?.deep && p.op === 'math' && p.sets.some((x) => x.field === rs.names[0]);

/** The fusable runs of a chain's stages (two or more, one form, an aggregate only last). */
export function fuseChain(e: Emitter, plans: Array<StagePlan | undefined>, owner: string[]): Fused[] {
  const out: Fused[] = [];
  for (let i = 0; i < plans.length;) {
    const form = formOf(plans[i]);
    let j = i;
    if (form !== undefined) {
      let filtered = false;
      while (j < plans.length && formOf(plans[j])?.key === form.key) {
        const p = plans[j]!;
        if (filtered && p.op === 'math' && needsLength(p.records?.pick)) break;
        filtered ||= p.op === 'filter';
        j++;
        if (p.op === 'aggregate' || writesName(p, form.rs)) break;
      }
    }
    if (j - i >= 2) {
      out.push({ from: i, to: j, name: emitFused(e, plans.slice(i, j) as StagePlan[], form!.rs, owner) });
      i = j;
    } else i++;
  }
  return out;
}

function emitFused(e: Emitter, stages: StagePlan[], form: RecordSet | undefined, owner: string[]): Code {
  const name = e.names.make(...owner, 'fused');
  const sink = stages.at(-1)!.op === 'aggregate' ? (stages.at(-1) as AggregatePlan) : undefined;
  // Math fields computed but not yet on the record `r`: their variable, and for math on picked elements
  // the variable saying whether this element was picked (the field is absent when it was not).
  const pending = new Map<string, { v: string; cond?: string }>();
  let owned = false; // r is a copy made here (writable), not an element of the input
  let maybeOwned = false; // r may be a copy made on a picked element's branch (tested as r !== el)
  let vars = 0;
  const body: string[] = [];
  const before: string[] = []; // lines before the loop: what the picks need
  const copyLine = (): string => (maybeOwned ? 'if (r === el) r = rt.sp.copyRecord(r);' : 'r = rt.sp.copyRecord(r);');
  /** Makes `r` the record the stages so far would have produced (fields in the order math wrote them). */
  const writeOut = (): void => {
    for (const [f, { v, cond }] of pending) {
      if (cond) {
        body.push(`    if (${cond}) { ${owned ? '' : 'if (r === el) r = rt.sp.copyRecord(r); '}${writeField('r', f, v)} }`);
        maybeOwned = true;
      } else {
        if (!owned) body.push(`    ${copyLine()}`);
        owned = true;
        body.push(`    ${writeField('r', f, v)}`);
      }
    }
    pending.clear();
  };
  for (const st of stages) {
    if (st.op === 'filter') filterLines(st);
    else if (st.op === 'math') mathLines(st);
  }
  function filterLines(st: FilterPlan): void {
    for (const c of st.conds) {
      const first = c.field.k === 'path' && c.field.segs.length > 0 ? String(c.field.segs[0]) : undefined;
      if (first === undefined || pending.has(first)) writeOut();
      const v = `v${vars++}`;
      body.push(`    const ${v} = ${fieldOf(c)};`, `    if (!(${c.test(v)})) continue;`);
    }
  }
  function mathLines(st: MathPlan): void {
    const pick = st.records?.pick;
    if (pick && pick.k !== 'all') return pickedMathLines(st, pick);
    for (const set of st.sets) {
      // A field a picked stage left pending is written out first: it keeps its place on the picked records.
      if (set.reads === 'all' || [...set.reads].some((f) => pending.has(f)) || pending.get(set.field)?.cond) writeOut();
      const value = mathValue(st, set, 'r');
      if (owned) body.push(`    ${writeField('r', set.field, value)}`);
      else {
        const v = `m${vars++}`;
        body.push(`    const ${v} = ${value};`);
        pending.set(set.field, { v });
      }
    }
  }
  /** Math on some elements (a slice, indices, a filter); the others pass unchanged. The picked records' fields stay in
   *  variables as math's do, unless the stage reads or rewrites a field not yet written out (or r is
   *  already ours): then they are written on a copy at once. */
  function pickedMathLines(st: MathPlan, pick: Exclude<Pick, { k: 'all' }>): void {
    if (pick.k === 'where') writeOut(); // its test reads the record
    const n = vars++;
    let test: string;
    if (pick.k === 'where' || needsLength(pick)) {
      // The element is a record here: a filter pick takes its test for records.
      const where = pick.k === 'where' ? declareWhere(e, st.records, owner, true) : st.where;
      const code = pickCode(st.records!, where, String(n))!;
      before.push(...code.before.map((l) => `  ${l}`));
      test = code.test(`i${n}`, 'r');
    } else test = positionTest(pick, `i${n}`);
    // The element's position at this stage: no filter before it here when the pick needs the length.
    if (pick.k !== 'where') { before.push(`  let n${n} = 0;`); body.push(`    const i${n} = n${n}++;`); }
    const seen = new Set(pending.keys());
    const direct = owned || st.sets.some((set) => {
      const clash = set.reads === 'all' || [...set.reads].some((f) => seen.has(f)) || seen.has(set.field);
      seen.add(set.field);
      return clash;
    });
    const p = `p${n}`;
    body.push(`    const ${p} = ${test};`);
    if (direct) {
      writeOut();
      body.push(`    if (${p}) {`);
      if (!owned) body.push(`    ${copyLine()}`);
      for (const set of st.sets) body.push(`    ${writeField('r', set.field, mathValue(st, set, 'r'))}`);
      body.push('    }');
      maybeOwned ||= !owned; // `owned` unchanged: a copy made on one branch only
      return;
    }
    for (const set of st.sets) {
      const v = `m${vars++}`;
      body.push(`    const ${v} = ${p} ? ${mathValue(st, set, 'r')} : undefined;`);
      pending.set(set.field, { v, cond: p });
    }
  }
  // An aggregate reads a dotted field; one starting at a pending math field reads on from its variable;
  // a plain name of the record is its own field (getDotted's rule for a record).
  const own = (f: string): string => {
    if (f.includes('.')) return `rt.sp.getDotted(r, ${lit(f)})`;
    return plainKey(f) ? `r${member(f)}` : `(Object.hasOwn(r, ${lit(f)}) ? r${member(f)} : undefined)`;
  };
  const read = (f: string): string => {
    const [first, ...rest] = f.split('.');
    const e = pending.get(first!);
    if (e === undefined) return own(f);
    const v = e.cond ? `(${e.cond} ? ${e.v} : ${own(first!)})` : e.v;
    return rest.length ? `rt.sp.getDotted(${v}, ${lit(rest.join('.'))})` : v;
  };
  if (sink) body.push(...aggregateItem(sink, read));
  else { writeOut(); body.push('    out.push(r);'); }

  const list = form ? listCall(form) : 'Array.isArray(d) ? d : undefined';
  const result = sink ? [...aggregateSummary(sink), '  return summary;'] : [`  return ${form ? putCall(form, 'out') : 'out'};`];
  e.declare(owner, `${stages.map((s) => s.op).join(' → ')}, fused`, new Code([
    `function ${name.text}(d: unknown, s: rt.Scope): unknown {`,
    `  const list = ${list};`,
    '  if (list === undefined) return rt.sp.UNFUSED;',
    ...(sink ? aggregateStart(sink) : ['  const out: unknown[] = [];']),
    ...before,
    '  try {',
    '    for (const el of list) {',
    '    let r = el as Record<string, unknown>;',
    // Math passes other elements through unchanged, a filter reads their fields otherwise: the stages
    // one by one handle that rare case.
    '    if (r === null || typeof r !== "object" || Array.isArray(r)) return rt.sp.UNFUSED;',
    ...body,
    '    }',
    '  } catch {',
    '    return rt.sp.UNFUSED;',
    '  }',
    ...result,
    '}',
  ].join('\n')));
  return name;
}

/** A condition's field of the record `r`: one plain name is its property (as the path's read gives it for
 *  a record, compiler/emit/plain-key.ts); other paths through the condition's read. */
function fieldOf(c: FilterCondition): string {
  const f = c.field;
  const seg = f.k === 'path' && f.segs.length === 1 ? f.segs[0] : undefined;
  return typeof seg === 'string' && plainKey(seg) ? `r${member(seg)}` : `${c.read}(r)`;
}

/** Indices and slices counted from the start, tested on the position `i` at the stage. */
function positionTest(p: Pick, i: string): string {
  if (p.k !== 'positions') throw new Error('internal error: not a position pick');
  return p.parts.map((x) => {
    if (typeof x === 'number') return `${i} === ${x}`;
    const [start, stop, step] = [x[0] ?? 0, x[1], x[2]];
    return `(${[`${i} >= ${start}`, stop === null ? '' : `${i} < ${stop}`, step === 1 ? '' : `(${i} - ${start}) % ${step} === 0`].filter(Boolean).join(' && ')})`;
  }).join(' || ') || 'false';
}
