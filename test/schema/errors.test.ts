import { describe, expect, it } from 'vitest';
import { check, withActions } from './helpers.ts';

describe('schema errors', () => {
  it('unknown field with a did-you-mean hint, at the key', () => {
    const text = withActions(`      - name: Fetch
        http: { url: https://x }
        retyr:
          attempts: 3
`);
    expect(check(text)).toEqual([
      { at: '6:9', severity: 'error', message: 'unknown field "retyr" in action "Fetch"', hint: 'did you mean "retry"?' },
    ]);
  });

  it('unknown field with nothing close has no hint', () => {
    const text = withActions(`      - name: Fetch
        zebra_crossing: 1
`);
    expect(check(text)).toEqual([{ at: '5:9', severity: 'error', message: 'unknown field "zebra_crossing" in action "Fetch"' }]);
  });

  it('unknown nested field names where it is', () => {
    const text = withActions(`      - name: Fetch
        http:
          ur: https://x
`);
    expect(check(text)).toEqual([
      { at: '5:9', severity: 'error', message: 'missing required field "url" in http of action "Fetch"', hint: 'set url: in http, or on the action itself' },
      { at: '6:11', severity: 'error', message: 'unknown field "ur" in http of action "Fetch"', hint: 'did you mean "url"?' },
    ]);
  });

  it('a field one level too high points at where it belongs', () => {
    const text = withActions(`      - name: Fetch
        http: { url: https://x }
        expect_status: 404
`);
    expect(check(text)).toEqual([
      { at: '6:9', severity: 'error', message: 'unknown field "expect_status" in action "Fetch"', hint: '"expect_status" belongs under "http:"' },
    ]);
  });

  it('unknown top-level and interface fields', () => {
    const text = `interfaces:
  orders:
    methd: GET
secrets: {}
`;
    expect(check(text)).toEqual([
      { at: '3:5', severity: 'error', message: 'unknown field "methd" in interface "orders"', hint: 'did you mean "method"?' },
      { at: '4:1', severity: 'error', message: 'unknown field "secrets" in the config' },
    ]);
  });

  it('wrong type, at the value', () => {
    const text = withActions(`      - name: Fetch
        http: { url: https://x }
        retry:
          attempts: three
`);
    expect(check(text)).toEqual([{ at: '7:21', severity: 'error', message: 'retry.attempts in action "Fetch": expected integer, got string' }]);
  });

  it('expected number, got string', () => {
    const text = `interfaces:\n  a:\n    schedule: { cron: "* * * * *", enabled: true, retry_backoff_seconds: soon }\n`;
    expect(check(text)).toEqual([
      { at: '3:74', severity: 'error', message: 'schedule.retry_backoff_seconds in interface "a": expected number, got string' },
    ]);
  });

  it('enum lists the allowed values and suggests the closest', () => {
    const text = `interfaces:\n  a:\n    output: htp\n`;
    expect(check(text)).toEqual([
      { at: '3:13', severity: 'error', message: 'output in interface "a": expected one of http, cli, none; got "htp"', hint: 'did you mean "http"?' },
    ]);
  });

  it('anyOf collapses to the branch whose type matches (string -> CaptureMode enum)', () => {
    const text = `interfaces:\n  a:\n    capture: error\n`;
    expect(check(text)).toEqual([
      { at: '3:14', severity: 'error', message: 'capture in interface "a": expected one of off, errors, all; got "error"', hint: 'did you mean "errors"?' },
    ]);
  });

  it('anyOf collapses to the branch whose type matches (object -> CaptureWindow)', () => {
    const text = `interfaces:\n  a:\n    capture: { mode: all, for_minuts: 5 }\n`;
    expect(check(text)).toEqual([
      { at: '3:27', severity: 'error', message: 'unknown field "for_minuts" in capture of interface "a"', hint: 'did you mean "for_minutes"?' },
    ]);
  });

  it('anyOf with no branch of the value type says which types fit', () => {
    const text = withActions(`      - name: A
        input: a|body|
        run_when_succeeded: Fetch
`);
    expect(check(text)).toEqual([
      { at: '6:29', severity: 'error', message: 'run_when_succeeded in action "A": expected array or object, got string' },
    ]);
  });

  it('nested unions report the innermost real problem', () => {
    const text = withActions(`      - name: Fetch
        http:
          url: https://x
          expect_status: [200, 5xxx]
`);
    expect(check(text)).toEqual([
      {
        at: '7:32',
        severity: 'error',
        message: 'http.expect_status[1] in action "Fetch": expected a status code such as 404, a class such as 2xx, 4xx or 5xx, or any; got "5xxx"',
      },
    ]);
  });

  it('durations explain their format', () => {
    const text = withActions(`      - name: Wait
        delay: 2 minutes
`);
    expect(check(text)).toEqual([
      { at: '5:16', severity: 'error', message: 'delay in action "Wait": expected a duration such as 500ms, 2s, 1m, 2h or 1d, or a number of milliseconds; got "2 minutes"' },
    ]);
  });

  it('numbers out of range', () => {
    const text = withActions(`      - name: Fetch
        http: { url: https://x }
        retry: { attempts: 0, on: [700] }
`);
    expect(check(text)).toEqual([
      { at: '6:28', severity: 'error', message: 'retry.attempts in action "Fetch": must be >= 1, got 0' },
      { at: '6:36', severity: 'error', message: 'retry.on[0] in action "Fetch": must be <= 599, got 700' },
    ]);
  });

  it('missing required fields are merged per object', () => {
    const text = withActions(`      - name: A
        input: a|body|
        post_transforms:
          - extract_with_regex: { value: text }
`);
    expect(check(text)).toEqual([
      { at: '7:13', severity: 'error', message: 'missing required fields "expr" and "keys" in post_transforms[0].extract_with_regex of action "A"' },
    ]);
  });

  it('a transform sets exactly one field', () => {
    const text = withActions(`      - name: A
        input: a|body|
        post_transforms:
          - rename_keys: { a: b }
            remove_keys: [c]
          - {}
`);
    expect(check(text)).toEqual([
      {
        at: '7:13',
        severity: 'error',
        message: 'post_transforms[0] in action "A" sets rename_keys and remove_keys; a transform sets exactly one field',
        hint: 'give each transform its own list item under post_transforms',
      },
      { at: '9:13', severity: 'error', message: 'post_transforms[1] in action "A" is empty; a transform sets exactly one field' },
    ]);
  });

  it('a state action sets exactly one operation', () => {
    const text = withActions(`      - name: S
        state:
          get: { key: a }
          delete: { key: a }
`);
    expect(check(text)).toEqual([{ at: '5:9', severity: 'error', message: 'state in action "S": set only one of get, set, advance, increment, delete; found get and delete' }]);
  });

  it('a multipart part needs exactly one of value, b64, file_path', () => {
    const text = withActions(`      - name: Up
        http:
          url: https://x
          multipart:
            - { name: a, value: b, b64: c }
            - { name: d }
`);
    expect(check(text)).toEqual([
      { at: '8:15', severity: 'error', message: 'http.multipart[0] in action "Up": set only one of value, b64, file_path; found value and b64' },
      { at: '9:15', severity: 'error', message: 'http.multipart[1] in action "Up": set one of value, b64, file_path' },
    ]);
  });

  it('sftp needs host_key unless accept_any_host_key', () => {
    const bad = withActions(`      - name: Get
        sftp: { host: h, user: u, operation: get, path: /a }
`);
    expect(check(bad)).toEqual([
      {
        at: '5:9',
        severity: 'error',
        message: 'missing required field "host_key" in sftp of action "Get"',
        hint: "host_key is required unless accept_any_host_key is true (it verifies the server's identity)",
      },
    ]);
    const ok = withActions(`      - name: Get
        sftp: { host: h, user: u, operation: get, path: /a, accept_any_host_key: true }
`);
    expect(check(ok)).toEqual([]);
  });

  it('extract_with_css: attribute and html are exclusive', () => {
    const text = withActions(`      - name: A
        input: a|body|
        post_transforms:
          - extract_with_css: { selector: a, key: k, attribute: href, html: true }
`);
    expect(check(text)).toEqual([
      { at: '7:13', severity: 'error', message: 'post_transforms[0].extract_with_css in action "A": set either attribute or html, not both' },
    ]);
  });

  it('an empty or non-mapping document', () => {
    expect(check('')).toEqual([
      { at: '1:1', severity: 'error', message: 'the config: expected object, got null', hint: 'a config is a mapping with an `interfaces:` key' },
    ]);
    expect(check('features: { compress: true }\n')).toEqual([{ at: '1:1', severity: 'error', message: 'missing required field "interfaces" in the config' }]);
  });

  it('does not repeat the same problem', () => {
    const text = withActions(`      - name: A
        input: a|body|
        hide_errors: "yes"
`);
    const ds = check(text);
    expect(ds).toHaveLength(1);
  });

  it('deprecated fields are accepted', () => {
    const text = `interfaces:
  a:
    request_example: { x: 1 }
    response_example: [1]
    actions:
      - name: Up
        http:
          url: https://x
          multipart_form: [{ key: k, value: v }]
          multipart_files: [{ file_path: /a, file_name: a }]
`;
    expect(check(text)).toEqual([]);
  });

  it('legacy multipart shapes are still checked', () => {
    const text = `interfaces:
  a:
    actions:
      - name: Up
        http:
          url: https://x
          multipart_files: [{ file_path: /a }]
`;
    expect(check(text)).toEqual([{ at: '7:29', severity: 'error', message: 'missing required field "file_name" in http.multipart_files[0] of action "Up"' }]);
  });
});

describe('http url', () => {
  it('may be given on the action, with http holding the other settings', () => {
    const text = withActions(`      - name: Fetch\n        url: https://x\n        http: { headers: { accept: application/json } }\n`);
    expect(check(text)).toEqual([]);
  });

  it('is required somewhere', () => {
    const text = withActions(`      - name: Fetch\n        http: { method: POST }\n`);
    expect(check(text)).toEqual([
      { at: '5:9', severity: 'error', message: 'missing required field "url" in http of action "Fetch"', hint: 'set url: in http, or on the action itself' },
    ]);
  });
});

describe('positions of empty values', () => {
  it('point at the key of `key:` with nothing after it', () => {
    expect(check('interfaces:\n  orders:\n')).toEqual([{ at: '2:3', severity: 'error', message: 'interface "orders": expected object, got null' }]);
  });
});

describe('composed input', () => {
  it('accepts a mapping of references as input', () => {
    const text = withActions(`      - name: A\n        url: https://x\n      - name: B\n        input: { a: a|A|, n: 1 }\n`);
    expect(check(text)).toEqual([]);
  });
});
