import { describe, expect, it } from 'vitest';
import { lintConfig } from '../../compiler/load/lint.ts';
import { parseYamlWithPositions } from '../../compiler/source/yaml.ts';
import { check, checkLints, withActions } from './helpers.ts';

describe('lintConfig', () => {
  it('can be called on its own with a parsed config', () => {
    const text = withActions(`      - name: Load\n        database: db\n        query: select 1\n        retry: { attempts: 2, on: [5xx] }\n`);
    const { value, locate } = parseYamlWithPositions('t.yaml', text);
    const [d] = lintConfig(value, locate, 't.yaml');
    expect(d).toMatchObject({ file: 't.yaml', line: 7, col: 31, severity: 'warning', path: ['interfaces', 'orders', 'actions', 0, 'retry', 'on'] });
  });

  it('tolerates configs of the wrong shape', () => {
    const { locate } = parseYamlWithPositions('t.yaml', 'a: 1');
    for (const bad of [null, 3, [], { interfaces: [] }, { interfaces: { a: { actions: 'x' } } }, { interfaces: { a: { actions: [null, 1, { run_when_failed: 3 }] } } }]) {
      expect(() => lintConfig(bad, locate, 't.yaml')).not.toThrow();
    }
  });
});

describe('retry.on / retry.except on non-HTTP actions', () => {
  it('warns for each, at the key', () => {
    const text = withActions(`      - name: Load
        database: db
        query: select 1
        retry:
          attempts: 3
          on: [5xx]
          except: [503]
      - name: Fetch
        url: https://x
        retry: { attempts: 3, on: [5xx] }
`);
    expect(check(text)).toEqual([
      {
        at: '9:11',
        severity: 'warning',
        message: 'retry.on has no effect on action "Load", which makes no HTTP call',
        hint: 'for non-HTTP actions every failure is retried; status matchers only apply to HTTP actions',
      },
      {
        at: '10:11',
        severity: 'warning',
        message: 'retry.except has no effect on action "Load", which makes no HTTP call',
        hint: 'for non-HTTP actions every failure is retried; status matchers only apply to HTTP actions',
      },
    ]);
  });
});

describe('markers', () => {
  it('warns on an unclosed marker outside input, suggesting the closed form', () => {
    const text = withActions(`      - name: Fetch
        http:
          url: "https://x/items?id=a|body"
`);
    expect(check(text)).toEqual([
      {
        at: '6:16',
        severity: 'warning',
        message: 'unclosed marker "a|body" in action "Fetch" is sent literally at run time',
        hint: 'close it as a|body|',
      },
    ]);
  });

  it('suggests the reference part only when text follows', () => {
    const text = withActions(`      - name: A\n        input: a|body|\n        response_on_success: { body: "id=a|A::body.id and more" }\n`);
    expect(check(text)[0].hint).toBe('close it as a|A::body.id|');
  });

  it('accepts the bare form in input fields', () => {
    const text = withActions(`      - name: A
        input: a|body
        input_fallbacks: [a|params]
        conditional_input: [a|headers, { input: a|body, tests: [{ is_not_null: true }] }]
`);
    expect(check(text)).toEqual([]);
  });

  it('ignores pipes in jq, regex and JSON path text', () => {
    const text = withActions(`      - name: A
        input: a|body|
        json_output: { n: ".a|.b" }
        post_transforms:
          - extract_with_jq: "map(.a|tostring)"
        assert:
          tests:
            - jq: ".data|length"
              regex: "^(a|b)$"
`);
    expect(check(text)).toEqual([]);
  });

  it('refuses a marker naming neither a root nor an earlier action, with did-you-mean (issue 30: was a warning, and the text was sent)', () => {
    const text = withActions(`      - name: Fetch
        url: https://x
      - name: Use
        run_when_succeeded: [Fetch]
        response_on_success: { body: "a|Fetchh::body.id|" }
        http: { url: "https://y/a|Bdy->id|" }
`);
    expect(check(text)).toEqual([
      {
        at: '8:38',
        severity: 'error',
        message: 'marker a|Fetchh::body.id| in action "Use" reads "Fetchh", which is neither a known root nor an earlier action',
        hint: 'did you mean "Fetch"?',
      },
      {
        at: '9:22',
        severity: 'error',
        message: 'marker a|Bdy->id| in action "Use" reads "Bdy", which is neither a known root nor an earlier action',
        hint: 'did you mean "body"?',
      },
    ]);
  });

  it('warns when a marker reads an action that runs later', () => {
    const text = withActions(`      - name: First
        input: a|Second|
      - name: Second
        input: a|body|
`);
    expect(check(text)).toEqual([
      {
        at: '5:16',
        severity: 'warning',
        message: 'marker a|Second| in action "First" reads "Second", which has not run yet at this point',
        hint: 'a marker can read only actions that run earlier',
      },
    ]);
  });

  it('lets nested lookup actions read outer and sibling actions, and interface fields read any action', () => {
    const text = `interfaces:
  orders:
    response: { custom_body: "a|Each|" }
    actions:
      - name: List
        url: https://x
      - name: Each
        lookup: a|List->items|
        actions:
          - name: One
            url: https://x/a|body::id|?list=a|List::status|
          - name: Two
            input: a|One|
`;
    expect(check(text)).toEqual([]);
  });

  it('outside interfaces only roots are known', () => {
    const text = `on_error: { interface: a }\ninterfaces:\n  a:\n    templates: { ok: "a|uuid| a|Nope|" }\n`;
    expect(check(text)).toEqual([
      { at: '4:22', severity: 'error', message: 'marker a|Nope| in interface "a" reads "Nope", which is neither a known root nor an earlier action', hint: 'roots: body, raw_body, params, headers, uuid, header, state, secret, ap_secret, var, ap_var, env; earlier actions: none' },
    ]);
  });
});

describe('action checks', () => {
  it('multi: true with params is an error', () => {
    const text = withActions(`      - name: Batch
        database: db
        query: "delete from a; delete from b"
        multi: true
        params: [1]
`);
    expect(checkLints(text)).toEqual([
      {
        at: '7:9',
        severity: 'error',
        message: 'multi: true cannot be used with params in action "Batch"',
        hint: 'a multi-statement batch runs through the simple protocol, which takes no parameters',
      },
    ]);
  });

  it('duplicate action names in an interface are errors', () => {
    const text = withActions(`      - name: Fetch
        url: https://x
      - name: Fetch
        url: https://y
      - name: Each
        lookup: a|body|
        actions:
          - name: Each
            input: a|body|
`);
    expect(check(text)).toEqual([
      {
        at: '6:15',
        severity: 'error',
        message: 'duplicate action name "Fetch" in interface "orders"',
        hint: 'a reference such as a|Fetch| would be ambiguous; give each action its own name',
      },
      {
        at: '11:19',
        severity: 'error',
        message: 'duplicate action name "Each" in interface "orders"',
        hint: 'a reference such as a|Each| would be ambiguous; give each action its own name',
      },
    ]);
  });

  it('the same nested name under two different lookups is fine', () => {
    const text = withActions(`      - name: A
        lookup: a|body|
        actions: [{ name: Item, input: a|body| }]
      - name: B
        lookup: a|body|
        actions: [{ name: Item, input: a|body| }]
`);
    expect(check(text)).toEqual([]);
  });

  it('run conditions must name earlier actions', () => {
    const text = withActions(`      - name: Fetch
        url: https://x
      - name: Retry
        run_when_failed: [Fetchh]
        depends_on: { actions: [Later], at_least: 1 }
        run_when_succeeded: [Retry]
        url: https://y
      - name: Later
        url: https://z
`);
    expect(check(text)).toEqual([
      { at: '7:27', severity: 'error', message: 'run_when_failed of action "Retry" names unknown action "Fetchh"', hint: 'did you mean "Fetch"?' },
      {
        at: '8:33',
        severity: 'error',
        message: 'depends_on of action "Retry" names "Later", which does not run before it',
        hint: 'a condition can only name actions that run earlier in the interface',
      },
      { at: '9:30', severity: 'error', message: 'run_when_succeeded of action "Retry" names the action itself' },
    ]);
  });

  it('expect_exit strings other than any never match', () => {
    const text = withActions(`      - name: Run\n        command: { run: "true" }\n        expect_exit: "0"\n`);
    expect(checkLints(text)).toEqual([
      { at: '6:22', severity: 'warning', message: 'expect_exit "0" in action "Run" never matches', hint: 'write it as a number: expect_exit: 0' },
    ]);
  });

  it('emit_metric needs expose_metrics', () => {
    const text = withActions(`      - name: M\n        emit_metric: { name: runs, value: 1 }\n`);
    expect(checkLints(text)).toEqual([
      { at: '5:9', severity: 'error', message: 'emit_metric in action "M" requires expose_metrics: true on the config', hint: 'add expose_metrics: true at the top level' },
    ]);
    expect(checkLints(withActions(`      - name: M\n        emit_metric: { name: runs, value: 1 }\n`, 'expose_metrics: true\n'))).toEqual([]);
  });
});

describe('references to interfaces and servers', () => {
  it('on_error.interface must name an interface of the config', () => {
    const text = `on_error:\n  interface: alerts\ninterfaces:\n  alert: {}\n`;
    expect(check(text)).toEqual([
      { at: '2:14', severity: 'error', message: 'on_error.interface names unknown interface "alerts"', hint: 'did you mean "alert"?' },
    ]);
  });

  it('authorizers, agent tools, MCP servers and inherited error codes are checked', () => {
    const text = `mcp_servers: { shop: {} }
interfaces:
  auth: {}
  a:
    subscribe_authorizer: auht
    mcp: { enabled: true, server: shops, list_authorizer: auth }
    response: { http_code_inherit_error: [Fetch, Nope] }
    actions:
      - name: Fetch
        url: https://x
      - name: Bot
        agent: { url: https://llm, model: m, tools: [auth, a, zzz] }
      - name: Bot2
        agent: { url: https://llm, model: m, tool_headers: { x-user: a|header::x-user| } }
`;
    expect(checkLints(text)).toEqual([
      { at: '5:27', severity: 'error', message: 'subscribe_authorizer of interface "a" names unknown interface "auht"', hint: 'did you mean "auth"?' },
      { at: '6:35', severity: 'error', message: 'mcp.server of interface "a" names undeclared MCP server "shops"', hint: 'did you mean "shop"?' },
      { at: '7:50', severity: 'error', message: 'response.http_code_inherit_error of interface "a" names unknown action "Nope"' },
      { at: '12:63', severity: 'error', message: 'agent.tools of action "Bot" names unknown interface "zzz"' },
      { at: '14:46', severity: 'error', message: 'agent.tool_headers of action "Bot2" reaches no tool: it names no interface in agent.tools', hint: 'name the interfaces in agent.tools, or remove tool_headers (remote MCP servers take mcp[].headers)' },
    ]);
  });
});

describe('marker forms the interpolation grammar does not read', () => {
  it('a bare form after other text in input is literal too', () => {
    const text = withActions(`      - name: A\n        input: "x a|body"\n`);
    expect(check(text)).toMatchObject([{ at: '5:16', severity: 'warning', hint: 'close it as a|body|' }]);
  });

  it('named roots need a name; dotted paths read an action of that name', () => {
    const text = withActions(`      - name: A
        input: a|body|
        response_on_success: { body: "a|secret| a|body.id|" }
`);
    expect(check(text)).toEqual([
      { at: '6:38', severity: 'warning', message: 'marker a|secret| in action "A" needs a name', hint: 'write a|secret::<NAME>|' },
      {
        at: '6:38',
        severity: 'warning',
        message: 'marker a|body.id| in action "A" reads "body.id", an action name: a field is read with ::',
        hint: 'did you mean a|body::id|?',
      },
    ]);
  });
});

describe('malformed references', () => {
  it('text the grammar does not read as a reference is reported as literal', () => {
    const text = withActions(`      - name: A\n        input: "a|Fetch->->x|"\n        response_on_success: { body: "a|params::| a|body->|" }\n`);
    expect(check(text).map((d) => d.message)).toEqual([
      '"a|Fetch->->x|" in action "A" is not a valid reference and is sent literally',
      '"a|params::|" in action "A" is not a valid reference and is sent literally',
      '"a|body->|" in action "A" is not a valid reference and is sent literally',
    ]);
  });
});
