// IR nodes → TypeScript expressions. Values are read from the scope `s`; functions of data take `d`.
// Every semantic operation is a call into the runtime (`rt.*`), the same the interpreter makes.
import type { Fn, Node, Ref, TestIR, TransformIR } from '../../runtime/ir.ts';
import { compileJq } from '../jq/compile.ts';
import { mayRunRegex } from '../../runtime/jq/uses-regex.ts';
import { compileJsonPath } from '../jsonpath/compile.ts';
import { memberNames, placeSteps } from '../jsonpath/places.ts';
import { compileCalcSource } from '../calc/compile.ts';
import { readField } from '../emit/plain-key.ts';
import { rootCall } from '../../runtime/values/roots.ts';
import { Code, Name, _, join, key, lit, member } from '../emit/code.ts';
import type { Emitter } from './emitter.ts';
import { specialise } from './specialise/index.ts';
import { fuseChain } from './specialise/fuse.ts';

type Owner = string[];

export function emitNode(e: Emitter, n: Node, owner: Owner, hoist = true): Code {
  switch (n.k) {
    case 'lit': return e.constant(n.v, ...owner);
    case 'ref': return _`rt.val(${emitRef(n.ref)})`;
    case 'tmpl': {
      const parts = n.parts.map((p) => (typeof p === 'string' ? _`${p}` : p.esc ? _`rt.textAs(${p.esc}, ${emitRef(p)}, ${p.src})` : _`rt.text(${emitRef(p)})`));
      return join(parts, ' + ');
    }
    case 'obj': {
      const code = new Code(`{ ${n.props.map(([k, x]) => `${key(k)}: ${emitNode(e, x, [...owner, k], false).text}`).join(', ')} }`);
      return hoist ? hoistIfStatic(e, n, owner, code) : code;
    }
    case 'arr': {
      // [name, fn] pairs (math expressions, filter conditions, nested chains) name their function after the pair.
      const head = n.items[0];
      const label = head?.k === 'lit' && typeof head.v === 'string' ? head.v : undefined;
      const items = n.items.map((x, i) => emitNode(e, x, label !== undefined && i > 0 ? [...owner, label] : [...owner, String(i)], false).text);
      const code = new Code(`[${items.join(', ')}]`);
      return hoist ? hoistIfStatic(e, n, owner, code) : code;
    }
    case 'count': return _`rt.countOfValue(${emitNode(e, n.of, owner)})`;
    default: return emitFn(e, n, owner);
  }
}

/** Arguments built only from literals and functions do not depend on the run: build them once. */
function hoistIfStatic(e: Emitter, n: Node, owner: Owner, code: Code): Code {
  if (!isStatic(n) || owner.length === 0) return code;
  const name = e.names.make(...owner, 'args');
  e.decls.push(_`const ${name} = ${code};`);
  return name;
}

function isStatic(n: Node): boolean {
  if (n.k === 'obj') return n.props.every(([, x]) => isStatic(x));
  if (n.k === 'arr') return n.items.every(isStatic);
  if (n.k === 'test') return n.test.value === undefined && n.test.checks.every((c) => isStatic(c.arg));
  return n.k !== 'ref' && n.k !== 'tmpl' && n.k !== 'count' && n.k !== 'chain';
}

export function emitRef(r: Ref): Code {
  let c = rootOf(r);
  // A reference reads once per use, not per element: the runtime's read, the clearer code.
  for (const seg of r.path) c = _`rt.at(${c}, ${seg})`;
  if (r.default !== undefined) c = _`rt.orDefault(${c}, ${r.default})`;
  return c;
}

function rootOf(r: Ref): Code {
  const [op, ...args] = rootCall(r);
  return new Code(`rt.${new Name(op).text}(${join([_`s`, ...args.map((a) => _`${a}`)]).text})`);
}

/** A function of data, hoisted and named; returns its name. */
export function emitFn(e: Emitter, n: Fn, owner: Owner): Code {
  const name = e.names.make(...owner, n.k);
  switch (n.k) {
    case 'jq': e.declare(owner, `jq ${n.src}`, _`const ${name} = ${jqFn(n.src)};`); break;
    case 'jsonpath': {
      const c = compileJsonPath(n.src);
      const all = c ? new Code(`(${c.code})(d)`) : _`rt.jsonPathAll(${n.src}, d)`;
      e.declare(owner, `JSON path ${n.src}`, _`const ${name} = (d: unknown): unknown => ${n.first ? _`${all}[0]` : all};`);
      break;
    }
    case 'places': {
      // `$.a.b` (member names, the common target) and `$.a[*].b` (wildcards too) are walked by code;
      // anything else asks the engine.
      const steps = placeSteps(n.src);
      const names = memberNames(n.src);
      e.declare(owner, `JSON path ${n.src}`, names
        ? _`const ${name} = (d: unknown) => jp.memberPlaces(d, ${names});`
        : steps
          ? _`const ${name} = (d: unknown) => jp.stepPlaces(d, ${steps});`
          : _`const ${name} = (d: unknown) => rt.jsonPathPlaces(${n.src}, d);`);
      break;
    }
    case 'path': {
      let c: Code = _`d`;
      for (const seg of n.segs) c = readField(c, seg);
      e.declare(owner, `path ${n.src}`, _`const ${name} = (d: unknown): unknown => ${c};`);
      break;
    }
    // A math expression: math calls it on its copy of a record only, so `target` is a record (typed so
    // for the plain field reads, plain-key.ts).
    case 'calc': e.declare(owner, n.src, _`const ${name}: (target: rt.Rec) => unknown = ${new Code(compileCalcSource(n.src, { record: true }))};`); break;
    case 'test': e.declare(owner, `test ${n.test.src}`, emitTest(e, name, n.test, owner)); break;
    case 'chain': e.declare(owner, n.steps.map((t) => t.op).join(' → '), emitChain(e, name, n.steps, owner)); break;
  }
  return name;
}

/** jq: the compiled subset as plain code, else the full engine. Returns an expression of type (d) => unknown. */
export function jqFn(src: string): Code {
  const c = compileJq(src);
  if (c) return new Code(`(d: unknown): unknown => rt.jqValue(((${c.code}) as (input: any) => unknown[])(d))`);
  // A program that may run a regex runs on the worker pool, awaited (runtime/jq/pool.ts).
  if (mayRunRegex(src)) return _`async (d: unknown): Promise<unknown> => rt.jqValue(await rt.jqAllAsync(${src}, d))`;
  return _`(d: unknown): unknown => rt.jqValue(rt.jqAll(${src}, d))`;
}

function emitTest(e: Emitter, name: Code, t: TestIR, owner: Owner): Code {
  let subject: Code = _`d`;
  const awaits = t.jq !== undefined && mayRunRegex(t.jq);
  if (t.value) subject = emitNode(e, t.value, [...owner, 'value']);
  else if (t.jq !== undefined) subject = new Code(`${awaits ? 'await ' : ''}(${jqFn(t.jq).text})(d)`);
  else if (t.path) for (const seg of t.path) subject = readField(subject, seg);
  // Constant checks are built once, not on every call.
  const allLit = t.checks.every((c) => c.arg.k === 'lit');
  const checks = allLit
    ? e.constant(t.checks.map((c) => [c.op, (c.arg as { v: unknown }).v]), ...owner, 'checks')
    : new Code(`[${join(t.checks.map((c) => _`[${c.op}, ${emitNode(e, c.arg, [...owner, c.op])}]`)).text}]`);
  const head = awaits ? new Code('async function') : new Code('function');
  const ret = awaits ? new Code('Promise<rt.TestOutcome>') : new Code('rt.TestOutcome');
  return _`${head} ${name}(d: unknown, s: rt.Scope): ${ret} {\n  return rt.runTest(${subject}, ${checks} as Array<[string, unknown]>, ${t.src});\n}`;
}

function emitChain(e: Emitter, name: Code, steps: TransformIR[], owner: Owner): Code {
  const isAsync = steps.some((t) => t.async);
  const special = steps.map((t) => specialise(e, t, [...owner, t.op]));
  const calls = steps.map((t, i) => {
    const line = e.line(t.line, [...owner, String(i + 1), t.op]);
    // Settings fixed by the config: the transform written out as plain code (specialise/).
    const sp = special[i];
    if (sp) return `  d = rt.applyTransform(${lit(t.op)}, ${line.text}, ${sp.name.text}, d, ${sp.args?.text ?? 'undefined'}, s);`;
    const args = emitNode(e, t.args, [...owner, t.op]);
    const call = t.async ? 'await rt.applyTransformAsync' : 'rt.applyTransform';
    return `  d = ${call}(${lit(t.op)}, ${line.text}, rt.transforms${member(t.op)}.run, d, ${args.text}, s);`;
  });
  // Runs of record stages fused into one loop; the stages one by one stay for data it leaves (fuse.ts).
  const lines: string[] = [];
  let i = 0;
  for (const f of fuseChain(e, special.map((x) => x?.plan), owner)) {
    lines.push(...calls.slice(i, f.from));
    const r = `r${f.from + 1}`;
    lines.push(`  const ${r} = ${f.name.text}(d, s);`, `  if (${r} !== rt.sp.UNFUSED) d = ${r};`, '  else {',
      ...calls.slice(f.from, f.to).map((c) => `  ${c}`), '  }');
    i = f.to;
  }
  lines.push(...calls.slice(i));
  const head = isAsync ? 'async function' : 'function';
  const ret = isAsync ? 'Promise<unknown>' : 'unknown';
  return new Code(`${head} ${name.text}(d: unknown, s: rt.Scope): ${ret} {\n${lines.join('\n')}\n  return d;\n}`);
}
