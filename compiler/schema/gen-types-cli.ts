// Regenerates config-types.ts: `npx tsx compiler/schema/gen-types-cli.ts` (or `pipewright gen-types`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateTypes } from './gen-types.ts';

/** Writes config-types.ts next to the schema and returns its path. An unchanged text is not written:
 *  a newer source file makes the CLI run from TypeScript instead of dist/ (bin/pipewright.mjs), so a
 *  `npm run gen` that changed nothing would slow every later command until the next build. */
export async function writeTypes(): Promise<string> {
  const target = fileURLToPath(new URL('./config-types.ts', import.meta.url));
  const text = await generateTypes();
  if (!existsSync(target) || readFileSync(target, 'utf8') !== text) writeFileSync(target, text);
  return target;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`wrote ${await writeTypes()}`);
}
