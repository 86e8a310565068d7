// Every fixture's server bundle holds only what its config can reach: esbuild's metafile lists the
// bundle's inputs, and a library (or a runtime module) the config has no way to call fails the test.
// What a config reaches is read from its IR here, by action kind, transform, surface and setting,
// not from the bundler's own reading of the generated module (compiler/bundle/uses.ts).
// Always allowed, because a deployment setting reaches them whatever the config says: pg (the
// Postgres store), maxmind (SERVICE__GEOIP_DB), jose (SERVICE__JWT_SECRET / JWKS), pino, fastify.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleServer, compileConfig, generateModule } from '../../compiler/index.ts';
import type { ConfigIR } from '../../runtime/index.ts';
import { fixtureConfigs } from '../support/fixture-configs.ts';

interface Reach { ir: ConfigIR; kinds: Set<string>; ops: Set<string> }

/** Every action kind and transform op anywhere in the IR (lookups, on_error, conditions included). */
function reachOf(ir: ConfigIR): Reach {
  const kinds = new Set<string>();
  const ops = new Set<string>();
  const walk = (v: unknown, inActions: boolean): void => {
    if (Array.isArray(v)) { for (const x of v) walk(x, inActions); return; }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (inActions && typeof o.kind === 'string') kinds.add(o.kind);
    if (typeof o.op === 'string' && 'args' in o) ops.add(o.op);
    for (const [k, x] of Object.entries(o)) walk(x, k === 'actions');
  };
  walk(ir, false);
  return { ir, kinds, ops };
}

const kind = (...ks: string[]) => (r: Reach) => ks.some((k) => r.kinds.has(k));
const op = (...os: string[]) => (r: Reach) => os.some((o) => r.ops.has(o));
const either = (...fs: Array<(r: Reach) => boolean>) => (r: Reach) => fs.some((f) => f(r));
const mqtt = either(kind('mqtt_publish'), (r) => r.ir.interfaces.some((i) => i.mqtt !== undefined));
const channels = either(kind('ws_publish'), (r) => r.ir.interfaces.some((i) => i.ws !== undefined));
const http = kind('http', 'agent', 'discover');

/** node_modules package, or runtime module, → whether a config can reach it. */
const GATES: Record<string, (r: Reach) => boolean> = {
  undici: http,
  ws: either(channels, mqtt), // the broker serves MQTT over WebSocket too
  mqtt, aedes: mqtt,
  'csv-parse': either(kind('http'), op('parse_csv')),
  'csv-stringify': either(kind('http'), op('to_csv')),
  'fast-xml-parser': kind('http'),
  'fast-xml-builder': kind('http'),
  '@modelcontextprotocol/sdk': either(kind('agent'), (r) => r.ir.interfaces.some((i) => i.mcp !== undefined)),
  ssh2: kind('sftp'),
  nodemailer: kind('email'),
  mysql2: either(kind('database', 'document_operation'), (r) => r.ir.interfaces.some((i) => (i.response.logs?.length ?? 0) > 0)),
  aws4: either(kind('aws'), op('s3_generate_presigned_url')),
  cheerio: op('extract_with_css'),
  '@e965/xlsx': op('parse_xlsx'),
  unpdf: op('parse_pdf'),
  bcryptjs: op('bcrypt'),
  slugify: op('generate_slug'),
  'prom-client': (r) => r.ir.exposeMetrics === true,
  croner: (r) => r.ir.interfaces.some((i) => i.schedule !== undefined),
  'runtime/actions/http.ts': kind('http'),
  'runtime/actions/http/exchange.ts': kind('http'),
  'runtime/realtime/wire.ts': channels,
  'runtime/mqtt/broker.ts': mqtt,
  'runtime/mcp/routes.ts': (r) => r.ir.interfaces.some((i) => i.mcp !== undefined),
};

/** The gate an input file falls under, if any. */
function gateOf(input: string): string | undefined {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
  if (pkg) return pkg in GATES ? pkg : undefined;
  return Object.keys(GATES).find((g) => g.startsWith('runtime/') && input.endsWith(g) && !input.startsWith('pipewright-absent:'));
}

const fixtures = fixtureConfigs();
const dir = mkdtempSync(join(tmpdir(), 'pw-meta-'));

// One esbuild run per fixture (no minified output is written or started): a few seconds in all.
describe('what each fixture bundle holds', { timeout: 120_000 }, () => {
  it.each(fixtures)('%s: no library or module its config cannot reach', async (file) => {
    const c = compileConfig(join('fixtures', file));
    expect(c.ir).toBeDefined();
    const ir = c.ir!;
    const moduleFile = join(dir, `${ir.name}.ts`);
    writeFileSync(moduleFile, await generateModule(ir, { format: false }));
    const meta = await bundleServer(moduleFile, join(dir, `${ir.name}.mjs`), { codeCache: false });
    // A config that embeds the interpreter may run anything.
    if (ir.interfaces.some((i) => i.disableFastpath)) return;
    const reach = reachOf(ir);
    const unreachable = new Set<string>();
    for (const input of Object.keys(meta.inputs)) {
      const gate = gateOf(input);
      if (gate && !GATES[gate]!(reach)) unreachable.add(gate);
    }
    expect([...unreachable].sort(), `kinds ${[...reach.kinds].join(', ')}`).toEqual([]);
  });

  it('keeps what a config does reach (the gates are not vacuous)', async () => {
    const file = join(dir, 'reach.yaml');
    writeFileSync(file, `
interfaces:
  push:
    method: POST
    ws: updates
    actions:
      - name: Up
        url: http://127.0.0.1:9/x
        output: http
`);
    const ir = compileConfig(file).ir!;
    const moduleFile = join(dir, 'reach.ts');
    writeFileSync(moduleFile, await generateModule(ir, { format: false }));
    const inputs = Object.keys((await bundleServer(moduleFile, join(dir, 'reach.mjs'), { codeCache: false })).inputs);
    for (const gate of ['undici', 'ws', 'csv-parse', 'fast-xml-parser', 'runtime/actions/http.ts', 'runtime/realtime/wire.ts']) {
      expect(inputs.some((i) => gateOf(i) === gate), gate).toBe(true);
    }
  });
});
