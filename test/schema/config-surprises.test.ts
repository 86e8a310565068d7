// Issue 30, section 1: nothing accepted and ignored. Each config below used to pass `check` and then
// run something other than what it says; now `check` refuses it (or warns) at the field's position.
import { describe, expect, it } from 'vitest';
import { check, withActions } from './helpers.ts';

const errors = (text: string) => check(text).filter((d) => d.severity === 'error');

// The generated guards (every pair of kinds, every kind-only field beside every other kind, the
// interface shorthand) are in fields.test.ts.
describe('one kind per action', () => {
  it.each([
    ['command: { run: echo hi }', 'url', 'command'],
    ['delay: 2000', 'url', 'delay'],
    ['state: { get: k }', 'url', 'state'],
    ['query: select 1\n        database: db', 'url', 'query'],
  ])('%s beside url is refused at the second kind', (other, first, second) => {
    const text = withActions(`      - name: A\n        url: http://127.0.0.1:1/x\n        ${other}\n`, 'databases: { db: { conn_string: "postgres://127.0.0.1/test" } }\n');
    expect(errors(text)).toContainEqual(expect.objectContaining({
      severity: 'error', message: `action "A" sets two kinds, ${first} and ${second}: an action runs one kind`,
      hint: `split it into two actions (${first} in one, ${second} in the next), in the order they should run`,
    }));
  });
});

describe('lookup', () => {
  it('a name instead of a marker is refused, pointing to the marker of the action of that name', () => {
    const text = withActions('      - name: Items\n        input: [1, 2]\n      - name: L\n        lookup: Items\n        actions: [{ name: X, input: a|body| }]\n');
    expect(errors(text)).toEqual([{ at: '7:17', severity: 'error', message: 'lookup of action "L" must be an array marker, not "Items"', hint: 'to fan out over the data of action "Items", write lookup: a|Items|' }]);
  });

  it('no nested actions is refused', () => {
    const text = withActions('      - name: L\n        lookup: a|body::items|\n');
    expect(errors(text)).toEqual([{ at: '5:9', severity: 'error', message: 'lookup of action "L" has no actions to run per item', hint: 'add actions: [...] under it (a|body| is the current item), or read the array itself with input:' }]);
  });

  it('the bare (unclosed) form is refused: the spec gives it to input only', () => {
    const text = withActions('      - name: Items\n        input: [1]\n      - name: L\n        lookup: a|Items\n        actions: [{ name: X, input: a|body| }]\n');
    expect(check(text)).toEqual([{ at: '7:17', severity: 'error', message: 'lookup of action "L" has an unclosed marker "a|Items"', hint: 'close it as a|Items| (only input takes the bare form)' }]);
  });

  it('a marker is accepted', () => {
    expect(check(withActions('      - name: L\n        lookup: a|body::items|\n        actions: [{ name: X, input: a|body| }]\n'))).toEqual([]);
  });
});

describe('interface and action fields', () => {
  it('the interface url shorthand beside actions is refused', () => {
    const text = 'interfaces:\n  x:\n    url: http://127.0.0.1:1/x\n    actions:\n      - name: A\n        input: a\n';
    expect(errors(text)).toEqual([{ at: '3:5', severity: 'error', message: 'interface "x" sets both url and actions: the url shorthand is a one-action interface', hint: 'make it an action of the list (- name: Fetch, url: ...), or remove actions' }]);
  });

  it('an action output other than http is refused with did-you-mean', () => {
    expect(errors(withActions('      - name: A\n        input: a\n        output: htttp\n'))).toEqual([
      { at: '6:17', severity: 'error', message: 'output in action "A": expected one of http; got "htttp"', hint: 'did you mean "http"?' },
    ]);
  });
});

describe('markers', () => {
  it('a closed marker glued to a letter, digit or _ is a warning at its position (it is sent literally)', () => {
    const d = check(withActions('      - name: A\n        input: { key: "id_a|params::id|", ok: "id-a|params::id|", text: "data|x|" }\n'));
    expect(d).toEqual([{
      at: '5:23', severity: 'warning',
      message: 'a|params::id| in action "A" follows "id_" with no separator, so it is not a marker and is sent literally',
      hint: 'a marker must start the text or follow a character other than a letter, digit or _ (such as - / . : or a space); to join a value to a word, build the text with extract_with_jq',
    }]);
  });

  it('is_valid_hmac over a|body| warns, pointing to a|raw_body|', () => {
    const text = withActions('      - name: A\n        input: a\n        assert:\n          tests:\n            - value: a|header::X-Sig|\n              is_valid_hmac: { secret: a|secret::K|, data: a|body|, algorithm: sha256 }\n');
    expect(check(text)).toEqual([{ at: '9:60', severity: 'warning', message: 'is_valid_hmac checks the signature of a|body|, the body re-serialised as JSON, not the bytes the sender signed', hint: 'use data: a|raw_body| (the request body exactly as received)' }]);
    expect(check(text.replace('data: a|body|', 'data: a|raw_body|'))).toEqual([]);
  });
});
