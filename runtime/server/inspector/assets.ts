// The inspector page's three files, read from beside this module (the sources, the package's dist/).
// A bundle has no such folder: compiler/bundle/inspector.ts replaces this module there with the
// files' text (`serve`, `compile --inspector`; without --inspector, nothing reaches this module).
import { readFileSync } from 'node:fs';

export interface InspectorAssets { html: string; js: string; css: string }

let read: InspectorAssets | undefined;

/** The page's files, read once. */
export function inspectorAssets(): InspectorAssets {
  const at = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
  return (read ??= { html: at('index.html'), js: at('app.js'), css: at('app.css') });
}
