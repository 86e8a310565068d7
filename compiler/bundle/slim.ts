// An esbuild plugin that leaves out of a bundle the runtime parts its config does not use: every
// transform the generated module does not call (the registry gets a stub that fails clearly if
// ever reached) and the jq engine (wasm, ~1 MB) when no program needs it. Heavy libraries (the
// spreadsheet and PDF readers, the HTML parser) are only reached through their transforms, so they
// go with them.
import type { Plugin } from 'esbuild';
import { dirname, join } from 'node:path';
import type { RuntimeUses } from './uses.ts';

const NS = 'pipewright-absent';

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

export function slimPlugin(uses: RuntimeUses, runtimeDir: string): Plugin {
  const registry = join(runtimeDir, 'transforms', 'index.ts');
  const jqEngine = join(runtimeDir, 'jq', 'engine.ts');
  const typesFile = join(runtimeDir, 'transforms', 'types.ts');
  const jqErrors = join(runtimeDir, 'jq', 'errors.ts');
  return {
    name: 'pipewright-slim',
    setup(b) {
      // Packages replaced whole, by bare name: those the runtime never reaches, and engines a config
      // without their feature never reaches (a stray use fails clearly).
      const packages = packageStubs(uses);
      b.onResolve({ filter: /^[@a-z]/ }, (a) => (packages.has(a.path) ? { path: `pkg:${a.path}`, namespace: NS } : undefined));
      b.onLoad({ filter: /^pkg:/, namespace: NS }, (a) => ({ loader: 'js', contents: packages.get(a.path.slice(4))! }));
      if (uses.all) return;
      b.onResolve({ filter: /^\.\/[a-z0-9_]+\.ts$/ }, (a) => {
        if (a.importer !== registry) return undefined;
        const name = a.path.slice(2, -3);
        // The registry's own tables (specs, types) are not transforms: they always stay.
        if (name === 'specs' || name === 'types') return undefined;
        return uses.transforms.has(name) ? undefined : { path: name, namespace: NS, pluginData: 'transform' };
      });
      b.onResolve({ filter: /\/engine\.ts$/ }, (a) => {
        if (uses.jqEngine || join(dirname(a.importer), a.path) !== jqEngine) return undefined;
        return { path: 'jq-engine', namespace: NS, pluginData: 'jq' };
      });
      // Surfaces a config does not use, with their libraries (MCP SDK, ws, aedes, mqtt, prom-client).
      const surfaces: Array<[file: string, used: boolean, stub: string]> = [
        [join(runtimeDir, 'mcp', 'routes.ts'), uses.mcp, 'export function registerMcpRoutes() {}'],
        [join(runtimeDir, 'realtime', 'index.ts'), uses.realtime, 'export function attachRealtime() {}\nexport const usesChannels = () => false;\nexport function askToReconnect() {}'],
        [join(runtimeDir, 'realtime', 'channels.ts'), uses.realtime, 'export class Channels {}'],
        [join(runtimeDir, 'mqtt', 'index.ts'), uses.mqtt, 'export async function startMqtt() { return undefined; }\nexport const usesMqtt = () => false;'],
        [join(runtimeDir, 'metrics', 'routes.ts'), uses.metrics, 'export function registerMetrics() {}'],
        [join(runtimeDir, 'actions', 'database', 'mysql.ts'), uses.databases, 'export function mysqlDriver() { throw new Error("MySQL is not in this bundle (its config has no database)"); }'],
      ];
      const stubs = new Map(surfaces.filter(([, used]) => !used).map(([file, , stub]) => [file, stub]));
      // Action kinds with heavy dependencies the plan never names (the agent's MCP client, SQL drivers, ssh2, nodemailer).
      const kindsFile = join(runtimeDir, 'actions', 'index.ts');
      const heavyKinds: Array<[kind: string, path: string, name: string]> = [['agent', './agent/index.ts', 'agent'], ['database', './database/action.ts', 'database'], ['document_operation', './document/action.ts', 'documentOperation'], ['sftp', './sftp/action.ts', 'sftp'], ['email', './email/action.ts', 'email']];
      b.onResolve({ filter: /\.ts$/ }, (a) => {
        const kind = a.importer === kindsFile ? heavyKinds.find(([, path]) => path === a.path) : undefined;
        if (kind && !uses.kinds.has(kind[0])) return { path: `kind:${kind[0]}`, namespace: NS, pluginData: kind[2] };
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
