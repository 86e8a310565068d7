// The recordings beside a cases file (`api.tests.yaml` → `api.recordings.json`): `--record` writes
// them (runtime/testing/recordings-file.ts), and every later run gives each case without inline
// `http:`/`actions:` the stand-ins recorded under its name, the case's own secret values put back
// where the file holds `[redacted:NAME]`.
import { existsSync } from 'node:fs';
import { readRecordings, Recorder, secretsOf, unredacted, writeRecordings, type CaseFile, type StandIns, type TestCase } from '../runtime/testing/index.ts';

/** `api.tests.yaml` (or any `*.yaml`) → `api.recordings.json` beside it. */
export const recordingsFileOf = (casesFile: string): string => `${casesFile.replace(/(\.tests)?\.ya?ml$/i, '')}.recordings.json`;

/** A case that takes its stand-ins from the recordings (and is recorded by --record): none inline. */
export const recorded = (c: TestCase): boolean => c.http === undefined && c.actions === undefined;

/** The cases, those without inline stand-ins given their recorded ones (when the file has them).
 *  Throws the recordings file's problem (not one, another format). */
export function withRecordings(cf: CaseFile, env: NodeJS.ProcessEnv = process.env): CaseFile {
  const file = recordingsFileOf(cf.file);
  if (!existsSync(file) || !cf.cases.some(recorded)) return cf;
  const rec = readRecordings(file).cases;
  // The value a replay puts back: the cases file's secret, else the process's (as the case run reads them).
  const valueOf = (name: string) => cf.secrets?.[name] ?? env[`SERVICE__SECRET__${name}`];
  return {
    ...cf,
    cases: cf.cases.map((c) => {
      const r = recorded(c) && Object.hasOwn(rec, c.name) ? rec[c.name]! : undefined;
      if (!r) return c;
      const back = unredacted(r, valueOf);
      return { ...c, ...(back.http.length ? { http: back.http } : {}), ...(Object.keys(back.actions).length ? { actions: back.actions } : {}) };
    }),
  };
}

/** Writes what `rec` recorded for the cases of `cf`: entries of its other cases are kept. */
export function saveRecordings(cf: CaseFile, rec: Recorder, env: NodeJS.ProcessEnv = process.env): string {
  const file = recordingsFileOf(cf.file);
  writeRecordings(file, rec.cases, secretsOf(env, cf.secrets ?? {}), new Set(cf.cases.filter(recorded).map((c) => c.name)), env);
  return file;
}

/** The cases file's values for a recorded case: its secrets give way to the process's own
 *  SERVICE__SECRET__<NAME> (the file's are test values; a recording needs the real ones). */
export function recordingValues(cf: CaseFile, env: NodeJS.ProcessEnv = process.env): Pick<CaseFile, 'vars' | 'secrets' | 'env'> {
  const secrets = Object.fromEntries(Object.entries(cf.secrets ?? {}).filter(([k]) => env[`SERVICE__SECRET__${k}`] === undefined && env[`SERVICE__SECRET__${k}_FILE`] === undefined));
  return { ...(cf.vars ? { vars: cf.vars } : {}), ...(cf.env ? { env: cf.env } : {}), secrets };
}

/** The recordings side of one `pipewright test` run: each cases file given its recordings (replay),
 *  or, with `--record`, its recordable cases run for real and recorded, then written beside it. */
export class CaseRecordings {
  private readonly recorders = new Map<CaseFile, Recorder>();

  constructor(private readonly record: boolean, private readonly env: NodeJS.ProcessEnv = process.env) {}

  /** The cases file as it runs: with recorded stand-ins (replay), or as it is (recording). Throws
   *  the recordings file's problem. */
  prepare(cf: CaseFile): CaseFile {
    if (!this.record) return withRecordings(cf, this.env);
    this.recorders.set(cf, new Recorder());
    return cf;
  }

  /** Runs one case through `run` (the harness), recording it when it is recorded. */
  async run(cf: CaseFile, c: TestCase, run: (values: Pick<CaseFile, 'vars' | 'secrets' | 'env'>, hooks: { standIns?: (base: StandIns) => StandIns }) => Promise<string[]>): Promise<string[]> {
    const rec = this.recorders.get(cf);
    if (!rec || !recorded(c)) return run(cf, {});
    rec.begin(c.name);
    try {
      return await run(recordingValues(cf, this.env), { standIns: (base) => rec.standIns(base) });
    } finally {
      rec.end();
    }
  }

  /** Writes the recordings of every file recorded; returns the files written. */
  save(): string[] {
    return [...this.recorders].map(([cf, rec]) => saveRecordings(cf, rec, this.env));
  }
}
