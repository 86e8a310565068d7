// Interpreter functions of data: jq and JSONPath go through the full engines (the fast path
// precompiles them), tests and transform chains call the same runtime operations as generated code.
import type { Fn, TestIR } from '../ir.ts';
import type { DataFn, Pred } from '../plan.ts';
import { jqAll, jqAllAsync } from '../jq/engine.ts';
import { mayRunRegex } from '../jq/uses-regex.ts';
import { jsonPathAll, jsonPathPlaces } from '../jsonpath/query.ts';
import { compileCalcClosure } from '../calc/eval.ts';
import { path } from '../values/get.ts';
import { jqValue } from '../values/jq-value.ts';
import { runTest } from '../asserts/run-test.ts';
import { transforms } from '../transforms/index.ts';
import { applyTransform, applyTransformAsync } from '../transforms/apply.ts';
import { buildNode } from './expr.ts';

export function buildFn(n: Fn): DataFn {
  switch (n.k) {
    case 'jq': return jqFn(n.src);
    case 'jsonpath': {
      const src = n.src;
      return n.first ? (d) => jsonPathAll(src, d)[0] : (d) => jsonPathAll(src, d);
    }
    case 'places': { const src = n.src; return (d) => jsonPathPlaces(src, d); }
    case 'path': { const segs = n.segs; return (d) => path(d, segs); }
    case 'calc': { const f = compileCalcClosure(n.src); return (d) => f(d); }
    case 'test': return buildTest(n.test);
    case 'chain': {
      const steps = n.steps.map((t) => {
        const def = transforms[t.op]!;
        return { op: t.op, line: t.line, run: def.run, args: buildNode(t.args) };
      });
      if (n.steps.some((t) => t.async)) {
        return async (d, s) => {
          let data = d;
          for (const st of steps) data = await applyTransformAsync(st.op, st.line, st.run, data, st.args(s), s);
          return data;
        };
      }
      return (d, s) => {
        let data = d;
        for (const st of steps) data = applyTransform(st.op, st.line, st.run, data, st.args(s), s);
        return data;
      };
    }
  }
}

export function buildTest(t: TestIR): Pred {
  const subject = testSubject(t);
  const checks = t.checks.map((c) => [c.op, buildNode(c.arg)] as const);
  const src = t.src;
  const args = (s: Parameters<Pred>[1]) => checks.map(([op, f]) => [op, f(s)] as [string, unknown]);
  if (t.jq !== undefined && mayRunRegex(t.jq)) return async (d, s) => runTest(await subject(d, s), args(s), src);
  return (d, s) => runTest(subject(d, s), args(s), src);
}

/** A jq leaf: one that may run a regex awaits the worker pool (runtime/jq/pool.ts), as generated code does. */
function jqFn(src: string): DataFn {
  if (mayRunRegex(src)) return async (d) => jqValue(await jqAllAsync(src, d));
  return (d) => jqValue(jqAll(src, d));
}

function testSubject(t: TestIR): DataFn {
  if (t.value) { const v = buildNode(t.value); return (_d, s) => v(s); }
  if (t.jq !== undefined) return jqFn(t.jq);
  if (t.path) { const segs = t.path; return (d) => path(d, segs); }
  return (d) => d;
}
