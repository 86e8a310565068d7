// A standalone server: the generated module plus the runtime and its packages in one ESM file.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { slimPlugin } from './bundle/slim.ts';
import { runtimeUses } from './bundle/uses.ts';
import { undiciPlugin } from './bundle/undici.ts';
import { nativeAddonPlugin } from './bundle/native.ts';

// The package root (where runtime/ and node_modules/ are), from the sources or from dist/compiler/.
const root = packageRoot(fileURLToPath(new URL('.', import.meta.url)));

function packageRoot(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'runtime'))) return d.endsWith(sep) ? d : d + sep;
    if (dirname(d) === d) throw new Error(`pipewright: no package root above ${dir}`);
  }
}

export async function bundleServer(moduleFile: string, outFile: string): Promise<void> {
  const uses = runtimeUses(readFileSync(moduleFile, 'utf8'));
  await build({
    stdin: {
      contents: `import { plan } from ${JSON.stringify(`./${basename(moduleFile)}`)};\nimport { main } from "pipewright/runtime";\nawait main([plan]);\n`,
      resolveDir: dirname(moduleFile),
      sourcefile: 'server-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: outFile,
    nodePaths: [`${root}node_modules`],
    alias: { 'pipewright/runtime': `${root}runtime/index.ts` },
    // Some bundled CommonJS packages call require() or read __dirname (ssh2's poly1305 loader); give
    // the ESM bundle both (the bundle's own folder).
    banner: { js: "import { createRequire as __pwCreateRequire } from 'node:module';\nconst require = __pwCreateRequire(import.meta.url);\nconst __pwFilename = new URL(import.meta.url).pathname;\nconst __pwDirname = __pwFilename.slice(0, __pwFilename.lastIndexOf('/'));" },
    define: { __dirname: '__pwDirname', __filename: '__pwFilename' },
    logLevel: 'silent',
    legalComments: 'none',
    // Only what the config uses (bundle/slim.ts).
    plugins: [slimPlugin(uses, `${root}runtime`), undiciPlugin(`${root}runtime`, root), nativeAddonPlugin],
    // The MySQL driver (and its charset tables) is loaded on first use of a MySQL database: a config
    // with no database action or log never reaches it, so its bundle leaves it out.
    external: uses.databases ? [] : ['mysql2', 'mysql2/*'],
    minify: true,
  });
}
