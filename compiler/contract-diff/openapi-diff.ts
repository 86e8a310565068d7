// The API contract change between two OpenAPI 3 documents: operations, parameters, request bodies,
// responses and security, each change classified breaking / warning / info (oasdiff's rules are the
// anchor: a client written against the old document must keep working against the new one).
import type { Change, Level } from './changes.ts';
import { diffSchema, type SchemaSite } from './schema-diff.ts';

type Obj = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export function diffOpenApi(oldDoc: unknown, newDoc: unknown): Change[] {
  const out: Change[] = [];
  const o = obj(oldDoc); const n = obj(newDoc);
  const oldOps = operations(o); const newOps = operations(n);
  for (const [key, op] of oldOps) {
    if (!newOps.has(key)) out.push({ id: 'api-removed', level: 'breaking', operation: op.label, at: '', message: 'operation removed' });
  }
  for (const [key, nop] of newOps) {
    const oop = oldOps.get(key);
    if (!oop) { out.push({ id: 'api-added', level: 'info', operation: nop.label, at: '', message: 'new operation' }); continue; }
    const ctx = { o, n, label: nop.label, out };
    if (oop.op.operationId !== nop.op.operationId && oop.op.operationId !== undefined) {
      push(ctx, 'api-operation-id-changed', 'warning', '', `operationId ${JSON.stringify(oop.op.operationId)} is now ${JSON.stringify(nop.op.operationId)} (generated clients rename the method)`);
    }
    parameters(ctx, oop, nop);
    requestBody(ctx, obj(deref(o, oop.op.requestBody)), obj(deref(n, nop.op.requestBody)), oop.op.requestBody !== undefined);
    responses(ctx, obj(oop.op.responses), obj(nop.op.responses));
    security(ctx, securityOf(o, oop.op), securityOf(n, nop.op));
  }
  return out;
}

interface Op { label: string; op: Obj; pathItem: Obj }
interface Ctx { o: Obj; n: Obj; label: string; out: Change[] }

function push(c: Ctx, id: string, level: Level, at: string, message: string): void {
  c.out.push({ id, level, operation: c.label, at, message });
}

/** Operations keyed by method and path shape: `/orders/{id}` and `/orders/{order_id}` are one route. */
function operations(doc: Obj): Map<string, Op> {
  const ops = new Map<string, Op>();
  for (const [path, item] of Object.entries(obj(doc.paths))) {
    const pathItem = obj(item);
    for (const m of METHODS) {
      const op = pathItem[m];
      if (op && typeof op === 'object') ops.set(`${m} ${path.replace(/\{[^}]*\}/g, '{}')}`, { label: `${m.toUpperCase()} ${path}`, op: op as Obj, pathItem });
    }
  }
  return ops;
}

function site(c: Ctx, at: string, direction: 'request' | 'response'): SchemaSite {
  return { operation: c.label, at, direction, resolve: (side, s) => schemaObj(side === 'old' ? c.o : c.n, s) };
}

function parameters(c: Ctx, oop: Op, nop: Op): void {
  const ps = (doc: Obj, op: Op) => {
    const m = new Map<string, Obj>();
    // Path-level parameters first, then the operation's own (which override by name and place).
    for (const p of [...arr(op.pathItem.parameters), ...arr(op.op.parameters)]) {
      const r = obj(deref(doc, p));
      if (typeof r.name === 'string' && typeof r.in === 'string') m.set(`${r.in}.${r.in === 'path' ? '' : r.name}${r.in === 'path' ? pathIndex(op.label, r.name) : ''}`, r);
    }
    return m;
  };
  const op = ps(c.o, oop); const np = ps(c.n, nop);
  for (const [k, p] of op) {
    if (!np.has(k) && p.in !== 'path') push(c, 'request-parameter-removed', 'warning', `${p.in}.${String(p.name)}`, 'parameter removed (clients still sending it are ignored or refused)');
  }
  for (const [k, p] of np) {
    const at = `${p.in}.${String(p.name)}`;
    const old = op.get(k);
    if (!old) {
      push(c, p.required === true ? 'new-required-request-parameter' : 'new-optional-request-parameter', p.required === true ? 'breaking' : 'info', at, p.required === true ? 'new required parameter' : 'new optional parameter');
      continue;
    }
    if (p.required === true && old.required !== true) push(c, 'request-parameter-became-required', 'breaking', at, 'became required');
    diffSchema(old.schema ?? {}, p.schema ?? {}, site(c, at, 'request'), c.out);
  }
}

/** A path parameter is identified by its position in the path, not its name. */
function pathIndex(label: string, name: string): string {
  const names = [...label.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  return String(names.indexOf(name));
}

function requestBody(c: Ctx, ob: Obj, nb: Obj, hadBody: boolean): void {
  if (nb.required === true && ob.required !== true) push(c, hadBody ? 'request-body-became-required' : 'request-body-added', 'breaking', 'body', hadBody ? 'the body became required' : 'a required body was added');
  const oc = obj(ob.content); const nc = obj(nb.content);
  for (const media of Object.keys(oc)) {
    if (Object.keys(nc).length && !(Object.hasOwn(nc, media))) push(c, 'request-body-media-type-removed', 'breaking', 'body', `${media} is no longer accepted`);
  }
  for (const [media, m] of Object.entries(nc)) {
    if (Object.hasOwn(oc, media)) diffSchema(obj(oc[media]).schema ?? {}, obj(m).schema ?? {}, site(c, 'body', 'request'), c.out);
  }
}

function responses(c: Ctx, or: Obj, nr: Obj): void {
  for (const code of Object.keys(or)) {
    if (Object.hasOwn(nr, code)) continue;
    const success = /^2/.test(code);
    push(c, success ? 'response-success-status-removed' : 'response-non-success-status-removed', success ? 'breaking' : 'warning', `response ${code}`, success ? 'success status removed' : 'status no longer documented');
  }
  for (const [code, r] of Object.entries(nr)) {
    if (!(Object.hasOwn(or, code))) { push(c, /^2/.test(code) ? 'response-success-status-added' : 'response-status-added', /^2/.test(code) ? 'warning' : 'info', `response ${code}`, 'status added'); continue; }
    const oc = obj(obj(deref(c.o, or[code])).content); const nc = obj(obj(deref(c.n, r)).content);
    for (const media of Object.keys(oc)) {
      if (!(Object.hasOwn(nc, media))) push(c, 'response-media-type-removed', 'breaking', `response ${code}`, `${media} is no longer sent`);
    }
    for (const [media, m] of Object.entries(nc)) {
      if (Object.hasOwn(oc, media)) diffSchema(obj(oc[media]).schema ?? {}, obj(m).schema ?? {}, site(c, `response ${code} body`, 'response'), c.out);
    }
  }
}

/** The requirement alternatives in force: the operation's own `security`, else the document's. */
function securityOf(doc: Obj, op: Obj): string[][] {
  const reqs = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  const schemes = obj(obj(doc.components).securitySchemes);
  // Name each scheme by what it is (a renamed scheme of the same kind is the same requirement).
  return reqs.map((r) => Object.keys(obj(r)).map((name) => schemeKind(obj(schemes[name]), name)).sort());
}

function schemeKind(s: Obj, name: string): string {
  if (s.type === 'apiKey') return `apiKey:${String(s.in)}:${String(s.name).toLowerCase()}`;
  if (s.type === 'http') return `http:${String(s.scheme).toLowerCase()}`;
  return typeof s.type === 'string' ? `${s.type}:${name}` : name;
}

function security(c: Ctx, os: string[][], ns: string[][]): void {
  const open = (alts: string[][]) => alts.length === 0 || alts.some((a) => a.length === 0);
  if (open(os) && !open(ns)) { push(c, 'api-security-added', 'breaking', 'security', `now requires ${ns.map((a) => a.join(' + ')).join(' or ')}`); return; }
  if (!open(os) && open(ns)) { push(c, 'api-security-removed', 'info', 'security', 'no credential is required any more'); return; }
  // Each new alternative must be one a client of the old document could already satisfy.
  const key = (a: string[]) => a.join('+');
  const had = new Set(os.map(key));
  const kept = ns.filter((a) => had.has(key(a)));
  if (!open(ns) && kept.length === 0) push(c, 'api-security-changed', 'breaking', 'security', `was ${os.map((a) => a.join(' + ')).join(' or ')}, now ${ns.map((a) => a.join(' + ')).join(' or ')}`);
  else if (kept.length < os.length) push(c, 'api-security-alternative-removed', 'breaking', 'security', `no longer accepts ${os.filter((a) => !ns.some((b) => key(b) === key(a))).map((a) => a.join(' + ')).join(' or ')}`);
}

function schemaObj(doc: Obj, s: unknown): Obj | undefined {
  if (s === true) return {};
  const r = deref(doc, s);
  return r && typeof r === 'object' && !Array.isArray(r) ? r as Obj : undefined;
}

/** Follows local `$ref`s (`#/components/...`), a bounded number of hops. */
function deref(doc: Obj, v: unknown): unknown {
  let cur = v;
  for (let hops = 0; hops < 16 && cur && typeof cur === 'object' && typeof (cur as Obj).$ref === 'string'; hops++) {
    const ref = (cur as Obj).$ref as string;
    if (!ref.startsWith('#/')) return undefined;
    let at: unknown = doc;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      at = Object.hasOwn(obj(at), key) ? obj(at)[key] : undefined;
    }
    cur = at;
  }
  return cur;
}

function obj(v: unknown): Obj {
  return v && typeof v === 'object' && !Array.isArray(v) ? v as Obj : {};
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
