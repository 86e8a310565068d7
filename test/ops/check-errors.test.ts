// Issue 9 (6, 7, 8): what `check` used to call ok and `serve` then crashed on, or ran without
// bound, is now a check error at its position.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, withActions } from '../schema/helpers.ts';
import { crossFileRouteConflicts } from '../../compiler/load/cross-routes.ts';
import { compileConfig } from '../../compiler/project.ts';

const errors = (text: string) => check(text).filter((d) => d.severity === 'error');
const iface = (body: string) => `interfaces:\n${body}`;

describe('routes', () => {
  it('refuses a method that is not one (GE T), with the likely fix', () => {
    expect(errors(iface(`  a:\n    method: GE T\n    actions: [{ name: A, input: "1" }]\n`))).toEqual([
      { at: '3:13', severity: 'error', message: 'method "GE T" of interface "a" is not an HTTP method', hint: 'did you mean "GET"?' },
    ]);
  });

  it('refuses the same method and route twice in one file, whatever the parameter names or trailing slash', () => {
    const text = iface(`  a:\n    route: /o/:id\n    actions: [{ name: A, input: "1" }]\n  b:\n    method: post\n    route: /o/:order/\n    actions: [{ name: A, input: "1" }]\n`);
    expect(errors(text)).toEqual([
      { at: '7:12', severity: 'error', message: 'POST /o/:order/ of interface "b" is already served by interface "a"', hint: 'give one of them another route or method' },
    ]);
  });

  it('refuses a route under /_ap/', () => {
    expect(errors(iface(`  a:\n    route: /_ap/health\n    actions: [{ name: A, input: "1" }]\n`))[0]).toMatchObject({ at: '3:12', message: expect.stringContaining('is under /_ap/') });
  });

  it('refuses the same route in two configs served together, at the second', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-routes-'));
    writeFileSync(join(dir, 'a.yaml'), iface(`  x:\n    method: GET\n    route: /x\n    actions: [{ name: A, input: "1" }]\n`));
    writeFileSync(join(dir, 'b.yaml'), iface(`  y:\n    route: /x/\n    actions: [{ name: A, input: "1" }]\n`));
    const all = ['a.yaml', 'b.yaml'].map((f) => compileConfig(join(dir, f)));
    expect(all.every((c) => c.ok)).toBe(true);
    expect(crossFileRouteConflicts(all).map((d) => [d.file.slice(dir.length + 1), d.line, d.message])).toEqual([
      ['b.yaml', 2, `GET /x/ of interface "y" is already served by interface "x" of ${join(dir, 'a.yaml')}`],
    ]);
  });
});

describe('schedules, YAML, files', () => {
  it('refuses cron 99 * * * * and an unknown timezone at their position', () => {
    const text = iface(`  a:\n    schedule: { cron: "99 * * * *", enabled: true }\n    actions: [{ name: A, input: "1" }]\n  b:\n    schedule: { cron: "0 * * * *", enabled: true, timezone: Mars/Olympus }\n    actions: [{ name: A, input: "1" }]\n`);
    expect(errors(text).map((d) => [d.at, d.message])).toEqual([
      ['3:23', 'schedule of interface "a": invalid cron "99 * * * *": Invalid value for minute: 99'],
      ['6:61', 'schedule of interface "b": unknown timezone "Mars/Olympus" (expected an IANA zone such as Europe/Paris)'],
    ]);
  });

  it('refuses YAML tags such as !!js/function', () => {
    expect(errors(withActions(`      - name: A\n        input: !!js/function "function(){}"\n`))).toEqual([
      expect.objectContaining({ at: '5:16', message: 'YAML: Unresolved tag: tag:yaml.org,2002:js/function' }),
    ]);
  });

  it('reports a missing file and a directory as diagnostics, not exceptions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-files-'));
    expect(compileConfig(join(dir, 'nope.yaml')).diagnostics.map((d) => d.message)).toEqual(['does not exist']);
    expect(compileConfig(dir).diagnostics.map((d) => d.message)).toEqual(['is a directory, not a config file']);
  });
});

describe('bounds (counts, durations) and regexes', () => {
  it('refuses unbounded counts and durations', () => {
    const text = withActions(`      - name: Fetch
        url: http://127.0.0.1:9/x
        timeout: 30d
        retry: { attempts: 99999999999999999999, delay: 0, max_delay: 400d }
      - name: L
        lookup: a|Fetch|
        lookup_concurrency: 1e11
        actions: [{ name: X, url: "http://127.0.0.1:9/y", http: { timeout: 2d } }]
      - name: W
        wait_for_callback: { token: "a|uuid|", timeout: 31d }
`);
    expect(errors(text).map((d) => [d.at, d.message])).toEqual([
      ['6:18', 'timeout "30d" is longer than the limit of 1d'],
      ['7:28', 'retry.attempts in action "Fetch": must be <= 100, got 100000000000000000000'],
      ['7:71', 'max_delay "400d" is longer than the limit of 30d'],
      ['10:29', 'lookup_concurrency in action "L": must be <= 1000, got 100000000000'],
      ['11:76', 'timeout "2d" is longer than the limit of 1d'],
      ['13:57', 'timeout "31d" is longer than the limit of 30d'],
    ]);
  });

  it('refuses every config regex the linear-time engine cannot run', () => {
    const text = `interfaces:
  a:
    params:
      id: { validate: { regex: "^(a)\\\\1$" } }
    actions:
      - name: A
        input: a|params::id|
        assert: { tests: [{ value: a|A|, regex: "(?=x)y" }] }
        post_transforms:
          - extract_with_regex: { value: "", expr: "(?<=a)b", keys: [k] }
          - replace_values: { find_str: "(x)\\\\1", regex: true, target_value: "" }
          - replace_values: { regex: "(?!z)", target_value: "" }
`;
    const found = errors(text);
    expect(found.map((d) => d.at)).toEqual(['4:32', '8:49', '10:52', '11:41', '12:38']);
    for (const d of found) expect(d.message).toMatch(/^invalid regex .*linear-time \(RE2\) engine/);
  });

  it('accepts what the engine runs: classes, groups, named groups, \\u escapes, markers', () => {
    const text = withActions(`      - name: A
        input: "x"
        assert: { tests: [{ value: a|A|, regex: "^(?<w>\\\\w+)\\\\s*[0-9]{1,3}\\\\u00e9?$" }, { value: a|A|, regex: "a|var::RE|" }] }
`);
    expect(errors(text)).toEqual([]);
  });
});

describe('resume tokens', () => {
  const token = (t: string) => withActions(`      - name: W\n        wait_for_callback: { token: ${JSON.stringify(t)}, timeout: 1h }\n`);

  it('refuses a literal and a template of request values', () => {
    expect(errors(token('aaaaaaaaaaaaaaaa'))).toEqual([expect.objectContaining({ at: '5:37', message: 'the resume token of action "W" can be guessed: it is a fixed text' })]);
    expect(errors(token('order-a|body::order_id|-callback'))[0]!.message).toBe('the resume token of action "W" can be guessed: it is built only from request or config values (body)');
  });

  it('accepts a|uuid|, a secret or an earlier action\'s output', () => {
    expect(errors(token('order-a|uuid|'))).toEqual([]);
    expect(errors(token('a|secret::CALLBACK_KEY|-a|body::id|'))).toEqual([]);
    expect(errors(withActions(`      - name: Mint\n        input: a|uuid|\n      - name: W\n        wait_for_callback: { token: "a|Mint|", timeout: 1h }\n`))).toEqual([]);
  });
});
