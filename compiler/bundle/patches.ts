// Start-up work of bundled packages that a Node server never needs, cut out of the bundle.
// Each patch is a text replacement; a package version without the text is bundled unchanged
// (the work comes back, nothing breaks).
import type { Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';

const PATCHES: Array<{ file: RegExp; find: string; replace: string }> = [
  // pg probes for Cloudflare Workers at import by building a `Response`, which makes Node load its
  // whole internal fetch implementation (the largest single cost of a bundle's start measured).
  { file: /[\\/]pg[\\/]lib[\\/]stream\.js$/, find: "if (typeof Response === 'function') {", replace: 'if (false) {' },
  // fastify checks a plugin's declared fastify version with semver, which builds ~50 regexes at
  // load; the runtime's plugins declare none, so semver is required only if one ever does.
  { file: /[\\/]fastify[\\/]lib[\\/]plugin-utils\.js$/, find: "const semver = require('semver')", replace: "const semver = { gt: (...a) => require('semver').gt(...a), coerce: (...a) => require('semver').coerce(...a), satisfies: (...a) => require('semver').satisfies(...a) }" },
  // fastify requires node:http2 and node:https at load for the servers it makes only when asked
  // (options.http2, options.https); the runtime asks for neither. http2 was ~2.5 ms of a start.
  { file: /[\\/]fastify[\\/]lib[\\/]server\.js$/, find: "const https = require('node:https')\nconst http2 = require('node:http2')", replace: "const https = { createServer: (...a) => require('node:https').createServer(...a) }\nconst http2 = { createServer: (...a) => require('node:http2').createServer(...a), createSecureServer: (...a) => require('node:http2').createSecureServer(...a) }" },
];

export const startupPatchPlugin: Plugin = {
  name: 'pipewright-startup-patches',
  setup(b) {
    for (const p of PATCHES) {
      b.onLoad({ filter: p.file }, async (a) => ({ loader: 'js', contents: (await readFile(a.path, 'utf8')).replace(p.find, p.replace) }));
    }
  },
};
