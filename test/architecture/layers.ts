// The layer rules of the sources (docs/architecture.md "Layout" describes them): which folders each folder may
// import. A folder is what test/architecture/graph.ts folderOf() says; a rule entry is a folder or a
// single file. Folders without a rule may import anything in their own layer and nothing above it.

/** The runtime files the compiler may use: IR types, spec tables and small pure helpers, no engines. */
export const COMPILER_USES_RUNTIME = [
  'runtime/ir.ts',
  'runtime/config-ir.ts',
  'runtime/transforms/specs.ts',
  'runtime/transforms/types.ts',
  'runtime/transforms/util/features.ts',
  'runtime/actions/kinds.ts',
  'runtime/actions/http/expect-status.ts',
  'runtime/values/duration.ts',
  'runtime/values/port.ts',
  'runtime/jq/text.ts',
  'runtime/jq/uses-regex.ts',
  'runtime/calc/parse.ts',
  'runtime/calc/round.ts',
  'runtime/contract/schema-from-tests.ts',
  'runtime/contract/openapi.ts',
  // Whether to trace: `serve` writes the tracer beside its bundle only then.
  'runtime/trace/settings.ts',
];

const ENGINES = ['runtime/values', 'runtime/calc', 'runtime/jq', 'runtime/jsonpath'];

export const RULES: Record<string, readonly string[]> = {
  // The command line: a composition root over the two public entries.
  // `pipewright test` alone reaches the runtime's test support, through its own entry. `check` reads
  // the settings a config needs from their own files: the runtime's entry loads every kind's client.
  cli: ['compiler/index.ts', 'runtime/index.ts', 'runtime/testing/index.ts', 'runtime/environment.ts', 'runtime/server/needs.ts'],
  // The OpenAPI document is re-exported for `compile`, which then never loads the runtime entry.
  'compiler/index.ts': ['compiler', 'compiler/*', 'runtime/contract/openapi.ts'],
  // compiler/project.ts and bundle.ts compose the front end and the code generator.
  compiler: ['compiler/load', 'compiler/lower', 'compiler/codegen', 'compiler/emit', 'compiler/bundle', 'compiler/source', 'compiler/schema', 'compiler/markers', ...COMPILER_USES_RUNTIME],
  'compiler/source': [],
  'compiler/markers': ['runtime/ir.ts'],
  'compiler/schema': ['compiler/source'],
  // The checker applies the runtime's own rules (bounds, RE2 regexes, cron) so check and serve agree.
  // jq programs and JSONPaths are checked by their own parsers (the jq engine's, json-p3's).
  // lint-accepts compiles accepts.schema the way the server will (ajv's set-up, its error answers).
  'compiler/load': ['runtime/contract/schema-ajv.ts', 'runtime/contract/body-check.ts', 'compiler/source', 'compiler/schema', 'compiler/markers', 'runtime/transforms/specs.ts', 'compiler/jq', 'compiler/jsonpath', 'runtime/transforms/util/encodings.ts', 'runtime/config-ir.ts', 'runtime/values/bounds.ts', 'runtime/values/regex.ts', 'runtime/values/namespace.ts', 'runtime/schedule/settings.ts'],
  // The generated config types are the language lowering reads (types only).
  // network: CIDR lists are parsed by the same code at load and at run time.
  'compiler/lower': ['runtime/values/build.ts', 'compiler/markers', 'compiler/source', 'runtime/network/ip-list.ts', 'compiler/schema/config-types.ts', 'compiler/schema/action-kinds.ts', ...COMPILER_USES_RUNTIME],
  // The one code builder every emitter uses (plan, jq, JSONPath, calc): below all of them.
  'compiler/emit': [],
  // The plan walk and the marker-root table are shared with the interpreter, so both paths agree.
  'compiler/codegen': ['compiler/schema/ajv-lib.ts', 'runtime/contract/body-check.ts', 'runtime/contract/schema-ajv.ts', 'compiler/emit', 'compiler/jq', 'compiler/jsonpath', 'compiler/calc', 'runtime/walk.ts', 'runtime/plan.ts', 'runtime/values/roots.ts', ...COMPILER_USES_RUNTIME],
  'compiler/jq': ['compiler/emit', 'compiler/jsonpath', 'runtime/jq/engine.ts', ...COMPILER_USES_RUNTIME],
  // JSONPath is parsed (checked) and its node lists defined by the same json-p3 environment as the interpreter's.
  'compiler/jsonpath': ['compiler/emit', 'runtime/jsonpath/env.ts', 'runtime/jsonpath/query.ts', ...COMPILER_USES_RUNTIME],
  'compiler/calc': ['compiler/emit', ...COMPILER_USES_RUNTIME],
  // `audit` reads loaded configs (walks, markers) and their IR; the allow-list syntax is the runtime's.
  // `diff` compares the OpenAPI documents of two lowered configs, and their IR.
  'compiler/contract-diff': ['runtime/config-ir.ts', 'runtime/contract/openapi.ts'],
  'compiler/audit': ['compiler/load/walk.ts', 'compiler/markers', 'compiler/source', 'runtime/ir.ts', 'runtime/config-ir.ts', 'runtime/network/ip-list.ts'],
  'runtime/index.ts': ['runtime', 'runtime/*'],
  // The runtime's own files are its contracts (IR, plan, scope, run state, services, store): the floor.
  runtime: [],
  // Shared value helpers: above the contracts only.
  'runtime/values': ['runtime'],
  // Engines and stores: values and contracts.
  'runtime/calc': ['runtime', 'runtime/values'],
  'runtime/jq': ['runtime', 'runtime/values'],
  'runtime/jsonpath': ['runtime', 'runtime/values'],
  'runtime/store': ['runtime', 'runtime/values'],
  // The operations both paths call: transforms, assertion operators, action kinds.
  'runtime/transforms': ['runtime', ...ENGINES],
  'runtime/asserts': ['runtime', ...ENGINES, 'runtime/transforms'],
  'runtime/actions': ['runtime', ...ENGINES, 'runtime/store', 'runtime/transforms', 'runtime/network'],
  // The executor runs plans; the interpreter builds them; neither knows the other or the server.
  'runtime/exec': ['runtime', ...ENGINES, 'runtime/store', 'runtime/transforms', 'runtime/asserts', 'runtime/actions', 'runtime/log'],
  // It compiles an interface's accepts.schema with ajv at load (the fast path has generated code).
  'runtime/interpret': ['runtime', ...ENGINES, 'runtime/transforms', 'runtime/asserts', 'runtime/actions', 'runtime/contract/schema-compile.ts'],
  // Services around the executor; the server and durable routes (no rule) sit on top of the runtime.
  'runtime/capture': ['runtime', 'runtime/values', 'runtime/store', 'runtime/exec'],
  'runtime/schedule': ['runtime', 'runtime/values', 'runtime/store', 'runtime/exec'],
};

/** Cycles that exist and are owned elsewhere, listed so that no new one can join them; remove when fixed. */
export const KNOWN_CYCLES: string[][] = [];

/** Whether `from` (a file) may import `to` (a file) under the rules. */
export function allowed(folderOf: (f: string) => string, from: string, to: string): boolean {
  const a = folderOf(from);
  const b = folderOf(to);
  if (a === b) return true;
  const layer = (f: string) => f.split('/')[0]!;
  const rule = RULES[a];
  if (!rule) return layer(a) === layer(b) && b !== `${layer(a)}/index.ts`;
  return rule.some((r) => r === b || r === to || (r.endsWith('/*') && b.startsWith(r.slice(0, -1))));
}
