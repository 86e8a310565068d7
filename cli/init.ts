// `pipewright init [dir]`: a project to start from (cli/starter.ts): a config with an example request,
// its expected answer and a test, the editor's schema modeline, package.json, .gitignore and a CI
// workflow. Writes into `dir` (made if missing) and never over a file that is already there.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { starterFiles } from './starter.ts';
import { version } from './version.ts';
import { err, paint } from './output.ts';

export function init(dir: string): number {
  const files = starterFiles(version());
  const taken = Object.keys(files).filter((f) => existsSync(join(dir, f)));
  if (taken.length) {
    err(`${paint.red('nothing written')}: ${taken.map((f) => join(dir, f)).join(', ')} already exist${taken.length === 1 ? 's' : ''}; run init in an empty folder, or move ${taken.length === 1 ? 'it' : 'them'} away`);
    return 1;
  }
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  const cd = dir === '.' ? '' : `cd ${dir} && `;
  err(`${paint.green('created')} ${Object.keys(files).map((f) => join(dir, f)).join(', ')}
next: ${cd}npm install && npx pipewright test api.yaml
      npx pipewright serve api.yaml   (then: curl -X POST localhost:8080/greet -H 'content-type: application/json' -d '{"name":"Ada"}')`);
  return 0;
}
