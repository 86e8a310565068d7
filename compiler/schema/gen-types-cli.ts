// Regenerates config-types.ts: `npx tsx compiler/schema/gen-types-cli.ts` (or `pipewright gen-types`).
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateTypes } from './gen-types.ts';

/** Writes config-types.ts next to the schema and returns its path. */
export async function writeTypes(): Promise<string> {
  const target = fileURLToPath(new URL('./config-types.ts', import.meta.url));
  writeFileSync(target, await generateTypes());
  return target;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`wrote ${await writeTypes()}`);
}
