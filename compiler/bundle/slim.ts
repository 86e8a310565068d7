// An esbuild plugin that leaves out of a bundle the runtime parts its config does not use: every
// transform the generated module does not call and every action kind its plan never names (the
// registries get stubs that fail clearly if ever reached), the surfaces it does not serve, and the
// jq engine (wasm, ~1 MB) when no program needs it. Libraries are only reached through those parts
// (the spreadsheet and PDF readers, the HTML parser, undici, csv and xml through the http kind, ws
// through channels), so they go with them. test/bundle/metafile.test.ts holds every fixture to it.
import type { Plugin } from 'esbuild';
import { dirname, join } from 'node:path';
import type { RuntimeUses } from './uses.ts';

const NS = 'pipewright-absent';

/** The runtime being bundled: its sources (.ts) or the package's dist/runtime (.js). */
export interface RuntimeTree { dir: string; ext: '.ts' | '.js' }

/** Every action kind of runtime/actions/index.ts but lookup (the executor's own): its module there and
 *  its export. A kind missing here is always bundled (never wrongly left out). */
const KINDS: Record<string, [path: string, name: string]> = {
  http: ['./http', 'http'], input: ['./input', 'input'], only_new: ['./only-new', 'onlyNew'], state: ['./state', 'state'],
  delay: ['./delay', 'delay'], wait_for_callback: ['./wait-for-callback', 'waitForCallback'],
  database: ['./database/action', 'database'], document_operation: ['./document/action', 'documentOperation'],
  agent: ['./agent/index', 'agent'], ws_publish: ['./ws-publish', 'wsPublish'], emit_metric: ['./emit-metric', 'emitMetric'],
  mqtt_publish: ['./mqtt-publish', 'mqttPublish'], sftp: ['./sftp/action', 'sftp'], discover: ['./discover/action', 'discover'],
  command: ['./command/action', 'command'], email: ['./email/action', 'email'], aws: ['./cloud/aws', 'aws'], google: ['./cloud/google', 'google'],
};

/** The tracer's own file beside a bundle (compiler/bundle.ts, bundleTracing): loaded only when tracing is on. */
export const TRACING_CHUNK = 'pipewright-tracing.cjs';
/** runtime/trace/load.ts in a bundle: the tracer from that file. CommonJS, required: server.mjs runs
 *  its bundle through node:vm, where Node 20 has no import(). Required as the bundle is evaluated when
 *  tracing is on: `serve` removes its bundle's folder once it has imported it. (__dirname is the
 *  bundle's folder.) A bundle built without the file (`compile` without --tracing) refuses to start
 *  when tracing is asked for: never silently untraced. */
const tracingLoader = (ext: string, beside: boolean) => beside ? `import { tracingWanted } from './settings${ext}';
const file = __dirname + ${JSON.stringify(`/${TRACING_CHUNK}`)};
const tracing = tracingWanted(process.env) ? require(file) : undefined;
export const loadTracing = async () => tracing ?? require(file);` : `import { StartupError } from ${JSON.stringify(`../startup-error${ext}`)};
export const loadTracing = async () => { throw new StartupError(${JSON.stringify(NO_TRACER)}); };`;

/** Why a bundle compiled without --tracing does not start with OTEL_EXPORTER_OTLP_ENDPOINT set. */
export const NO_TRACER = `OTEL_EXPORTER_OTLP_ENDPOINT asks for traces, but this server was compiled without the tracer: compile it again with \`pipewright compile --tracing\` (it writes ${TRACING_CHUNK} beside server.mjs), or unset OTEL_EXPORTER_OTLP_ENDPOINT (and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)`;

const throwing = (what: string) => `{ throw new Error(${JSON.stringify(`${what} not in this bundle`)}); }`;
const failing = (what: string) => `() => ${throwing(what)}`;

/** Bare package names → the CommonJS module standing in for them in this bundle. */
export function packageStubs(uses: RuntimeUses): Map<string, string> {
  const stubs = new Map<string, string>([
    // fastify compiles route schemas with ajv and fast-json-stringify, loaded when it is built; the
    // runtime declares no route schema (it checks requests itself), so fastify never calls them.
    ['@fastify/ajv-compiler', `module.exports = () => () => (${failing('fastify route schemas are')})();`],
    ['@fastify/fast-json-stringify-compiler', `module.exports = () => () => (${failing('fastify response schemas are')})();`],
    // fastify.inject() (light-my-request): tests only.
    ['light-my-request', `module.exports = ${failing('fastify.inject() is')};`],
  ]);
  // No regex in the config: the RE2 engine is not needed.
  if (!uses.regexes) stubs.set('re2js', `exports.RE2JS = class RE2JS { static compile() ${throwing('regexes (its config has none) are')} };`);
  // No JSONPath: json-p3 stands in as an environment whose every query fails (its module still builds one).
  if (!uses.jsonPath) {
    const fail = failing('JSONPath (its config has none) is');
    stubs.set('json-p3', `const fail = ${fail};\nclass JSONPathEnvironment { constructor() { this.functionRegister = new Map(); } }\n` +
      `for (const m of ['query', 'compile', 'match', 'nodeIter', 'findAll', 'find']) JSONPathEnvironment.prototype[m] = fail;\n` +
      `exports.jsonpath = { JSONPathEnvironment, JSONPathRecursionLimitError: class extends Error {}, query: fail, compile: fail };\n` +
      `exports.FunctionExpressionType = { ValueType: 'ValueType', LogicalType: 'LogicalType', NodesType: 'NodesType' };`);
  }
  if (!uses.jsonPathRegex) stubs.set('iregexp-check', `exports.check = ${failing('JSONPath match() and search() are')};`);
  // No schedule: the cron parser is not needed.
  if (!uses.schedules) stubs.set('croner', `exports.Cron = class Cron { constructor() ${throwing('schedules (its config has none) are')} };`);
  return stubs;
}

/** `tracer`: the tracer's file is written beside the bundle (compile --tracing, serve when tracing). */
export function slimPlugin(uses: RuntimeUses, tree: RuntimeTree, tracer: boolean): Plugin {
  const runtimeDir = tree.dir;
  const runtimeFile = (...parts: string[]) => join(runtimeDir, ...parts) + tree.ext;
  const registry = runtimeFile('transforms', 'index');
  const jqEngine = runtimeFile('jq', 'engine');
  const typesFile = runtimeFile('transforms', 'types');
  const jqErrors = runtimeFile('jq', 'errors');
  return {
    name: 'pipewright-slim',
    setup(b) {
      // Packages replaced whole, by bare name: those the runtime never reaches, and engines a config
      // without their feature never reaches (a stray use fails clearly).
      const packages = packageStubs(uses);
      // The tracer (OpenTelemetry's SDK and exporter, ~500 KB) is never in the bundle itself.
      const tracingLoad = runtimeFile('trace', 'load');
      b.onResolve({ filter: /\/load\.[jt]s$/ }, (a) => (join(dirname(a.importer), a.path) === tracingLoad ? { path: 'tracing:load', namespace: NS } : undefined));
      b.onLoad({ filter: /^tracing:/, namespace: NS }, () => ({ loader: 'ts', contents: tracingLoader(tree.ext, tracer), resolveDir: join(runtimeDir, 'trace') }));
      b.onResolve({ filter: /^[@a-z]/ }, (a) => (packages.has(a.path) ? { path: `pkg:${a.path}`, namespace: NS } : undefined));
      b.onLoad({ filter: /^pkg:/, namespace: NS }, (a) => ({ loader: 'js', contents: packages.get(a.path.slice(4))! }));
      if (uses.all) return;
      b.onResolve({ filter: /^\.\/[a-z0-9_]+\.[jt]s$/ }, (a) => {
        if (a.importer !== registry) return undefined;
        const name = a.path.slice(2, -3);
        // The registry's own tables (specs, types) are not transforms: they always stay.
        if (name === 'specs' || name === 'types') return undefined;
        return uses.transforms.has(name) ? undefined : { path: name, namespace: NS, pluginData: 'transform' };
      });
      b.onResolve({ filter: /\/engine\.[jt]s$/ }, (a) => {
        if (uses.jqEngine || join(dirname(a.importer), a.path) !== jqEngine) return undefined;
        return { path: 'jq-engine', namespace: NS, pluginData: 'jq' };
      });
      // Surfaces a config does not use, with their libraries (MCP SDK, ws, aedes, mqtt, prom-client).
      const surfaces: Array<[file: string, used: boolean, stub: string]> = [
        [runtimeFile('mcp', 'routes'), uses.mcp, 'export function registerMcpRoutes() {}'],
        [runtimeFile('realtime', 'index'), uses.realtime, 'export function attachRealtime() {}\nexport const usesChannels = () => false;\nexport function askToReconnect() {}'],
        [runtimeFile('realtime', 'channels'), uses.realtime, 'export class Channels {}'],
        [runtimeFile('mqtt', 'index'), uses.mqtt, 'export async function startMqtt() { return undefined; }\nexport const usesMqtt = () => false;'],
        [runtimeFile('metrics', 'routes'), uses.metrics, 'export function registerMetrics() {}'],
        // accepts.schema validators are generated code; ajv itself is for an embedded interpreter and
        // for MCP tools' input schemas (compiled at start: runtime/mcp/routes.ts).
        [runtimeFile('contract', 'schema-compile'), uses.all || uses.mcp, 'export function compileBodySchema() { throw new Error("JSON Schema compilation is not in this bundle (its validators are compiled code)"); }'],
        [runtimeFile('actions', 'database', 'mysql'), uses.databases, 'export function mysqlDriver() { throw new Error("MySQL is not in this bundle (its config has no database)"); }'],
      ];
      const stubs = new Map(surfaces.filter(([, used]) => !used).map(([file, , stub]) => [file, stub]));
      // Action kinds the plan never names, with their libraries (the http kind's undici, csv and xml
      // codecs; the agent's MCP client, SQL drivers, ssh2, nodemailer, aws4...).
      const kindsFile = runtimeFile('actions', 'index');
      const kindOf = new Map(Object.entries(KINDS).map(([kind, [path, name]]) => [path + tree.ext, [kind, name] as const]));
      b.onResolve({ filter: /\.[jt]s$/ }, (a) => {
        const kind = a.importer === kindsFile ? kindOf.get(a.path) : undefined;
        if (kind && !uses.kinds.has(kind[0])) return { path: `kind:${kind[0]}`, namespace: NS, pluginData: kind[1] };
        const file = a.path.startsWith('.') ? join(dirname(a.importer), a.path) : a.path;
        return stubs.has(file) ? { path: `surface:${file}`, namespace: NS, pluginData: stubs.get(file) } : undefined;
      });
      b.onLoad({ filter: /^kind:/, namespace: NS }, (a) => ({
        loader: 'ts',
        contents: `export const ${a.pluginData as string} = async () => ({ ok: false, error: ${JSON.stringify(`${a.path.slice(5)} actions are not in this bundle (its config has none)`)}, failure: { kind: 'other' } });\n`,
      }));
      b.onLoad({ filter: /^surface:/, namespace: NS }, (a) => ({ loader: 'ts', contents: a.pluginData as string }));
      b.onLoad({ filter: /.*/, namespace: NS }, (a) => ({
        loader: 'ts',
        resolveDir: runtimeDir,
        contents: a.path === 'jq-engine'
          ? `import { JqError } from ${JSON.stringify(jqErrors)};\nexport { JqError };\n` +
            `export async function initJq() {}\n` +
            `export function jqAll() { throw new JqError("the jq engine is not in this bundle (no program of its config needs it)"); }\n` +
            `export async function jqAllAsync() { return jqAll(); }\n`
          : `import { TransformError } from ${JSON.stringify(typesFile)};\n` +
            `export function run() { throw new TransformError(${JSON.stringify(`${a.path} is not in this bundle (its config does not use it)`)}); }\n`,
      }));
    },
  };
}
