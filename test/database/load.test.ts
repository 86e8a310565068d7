// What is refused at load, with its position: request data written into SQL text, an unknown or
// ambiguous database, multi with params, a document operation that is not built.
import { describe, expect, it } from 'vitest';
import { compileConfig } from '../../compiler/project.ts';

const diag = (yaml: string) => {
  const c = compileConfig('db.yaml', yaml);
  expect(c.ok).toBe(false);
  return c.diagnostics.filter((d) => d.severity === 'error').map(({ line, col, message, hint }) => ({ line, col, message, hint }));
};

const DBS = `databases:
  main: { url: "a|secret::MAIN|" }
  reports: { url: "a|secret::REPORTS|" }
`;

describe('database configs refused at load', () => {
  it('a request marker inside the SQL text', () => {
    expect(diag(`${DBS}interfaces:
  q:
    actions:
      - name: Q
        database: main
        query: "SELECT * FROM t WHERE id = 'a|params::id|'"
`)).toEqual([{ line: 9, col: 9, message: 'a|params::id| cannot be written into SQL text', hint: 'bind it as a parameter: put a|params::id| in params: and write $1 (Postgres) or ? (MySQL) in the query' }]);
  });

  it('an unknown database name, with the closest declared one', () => {
    expect(diag(`${DBS}interfaces:
  q:
    actions:
      - name: Q
        database: mian
        query: SELECT 1
`)[0]).toMatchObject({ line: 8, message: 'unknown database "mian"', hint: 'did you mean "main"?' });
  });

  it('an undeclared name beside conn_string labels the override; a request marker there stays refused', () => {
    const yaml = (conn: string) => `interfaces:
  q:
    actions:
      - name: Q
        database: reports
        conn_string: "${conn}"
        query: SELECT 1
`;
    expect(compileConfig('db.yaml', yaml('a|secret::REPORTS|')).diagnostics).toEqual([]);
    expect(diag(yaml('postgres://h/a|body::db|'))[0]).toMatchObject({ line: 6 });
  });

  it('no database named while several are declared', () => {
    expect(diag(`${DBS}interfaces:
  q:
    actions:
      - name: Q
        query: SELECT 1
`)[0]).toMatchObject({ line: 7, message: 'say which database: several are declared', hint: 'add database: one of main, reports' });
  });

  it('multi with params, at the multi line', () => {
    expect(diag(`${DBS}interfaces:
  q:
    actions:
      - name: Batch
        database: main
        multi: true
        query: "SELECT 1; SELECT 2"
        params: [1]
`)[0]).toMatchObject({ line: 9, message: 'multi: true cannot be used with params in action "Batch"' });
  });

  it('a document operation outside the built set', () => {
    const d = diag(`${DBS}interfaces:
  q:
    actions:
      - name: Agg
        document_operation: { database: main, collection: c, operation: aggregate }
`);
    expect(d[0]!.line).toBe(8);
    expect(d[0]!.message).toContain('operation');
  });

  it('the single declared database is the default; var markers may shape the SQL text', () => {
    const c = compileConfig('db.yaml', `databases:
  only: { url: "a|secret::ONLY|", pool_size: 2 }
interfaces:
  q:
    actions:
      - name: Q
        query: "SELECT * FROM a|var::SCHEMA|.t WHERE id = $1"
        params: [a|params::id|]
`);
    expect(c.diagnostics).toEqual([]);
    expect(JSON.stringify(c.ir!.interfaces[0]!.actions[0]!.config)).toContain('"label"');
  });
});
