// Check time: a jq program or JSONPath that does not parse is a config error at its value, with the
// position inside the program; valid ones (and dotted paths) pass.
import { describe, expect, it } from 'vitest';
import { checkJq } from '../../compiler/jq/check.ts';
import { checkJsonPath } from '../../compiler/jsonpath/check.ts';
import { check, withActions } from '../schema/helpers.ts';

const withTransforms = (list: string) => withActions(`      - action: http_request\n        name: Fetch\n        url: http://127.0.0.1/x\n        post_transforms:\n${list}`);

describe('checkJq / checkJsonPath', () => {
  it('give jq\'s message and the offset of the error', () => {
    expect(checkJq('.a | map(.b')).toEqual({ message: "jq: syntax error, unexpected end of file, expecting ';' or ')'", offset: 9 });
    expect(checkJq('.a\n| $nope')).toEqual({ message: 'jq: $nope is not defined', offset: 5 });
    expect(checkJq('.a | map(.b)')).toBeNull();
    expect(checkJsonPath('$.a[?@.b ==]')).toEqual({ message: 'invalid JSONPath: unexpected end of expression', offset: 11 });
    expect(checkJsonPath('$[?count(1)>2]')).toEqual({ message: expect.stringMatching(/^invalid JSONPath: count\(\) argument 0 must be of NodesType/), offset: 9 });
    expect(checkJsonPath('$[9007199254740992]')?.message).toBe('invalid JSONPath: index out of range');
    expect(checkJsonPath('items.0.name')).toBeNull();
    expect(checkJsonPath(' $.a')?.offset).toBe(0);
  });
});

describe('pipewright check', () => {
  it('reports a jq program that does not compile at its value', () => {
    const diags = check(withTransforms('          - extract_with_jq: ".items | map(.id"\n'));
    expect(diags).toEqual([{
      at: '8:30', severity: 'error',
      message: "jq: syntax error, unexpected end of file, expecting ';' or ')' (at line 1, column 14 of the jq program)",
      hint: 'the program must compile with jq 1.8',
    }]);
  });

  it('reports an invalid JSONPath at its value, and accepts valid and dotted ones', () => {
    expect(check(withTransforms('          - extract_with_json_path: "$.items[?@.price >]"\n'))).toEqual([{
      at: '8:37', severity: 'error',
      message: 'invalid JSONPath: unexpected end of expression (at line 1, column 19 of the JSONPath)',
      hint: 'a JSONPath follows RFC 9535 (text not starting with $ is a dotted path such as items.0.name)',
    }]);
    expect(check(withTransforms('          - extract_with_json_path: "$..items[?@.price > 2 && match(@.name, \'a.*\')].id"\n'))).toEqual([]);
    expect(check(withTransforms('          - extract_with_json_path: items.0.name\n'))).toEqual([]);
  });
});
