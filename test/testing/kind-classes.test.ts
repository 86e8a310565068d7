// Every action kind the build runs is classified for `pipewright test` (runtime/testing/stand-ins.ts):
// a new kind that calls out and has no class would run for real inside a test.
import { expect, it } from 'vitest';
import { actionKinds } from '../../runtime/actions/index.ts';
import { BUILT_KINDS } from '../../runtime/actions/kinds.ts';
import { KIND_CLASSES, kindClass } from '../../runtime/testing/stand-ins.ts';

it('classifies every action kind, and nothing else', () => {
  const kinds = [...Object.keys(actionKinds), 'lookup'].sort();
  expect(kinds).toEqual([...BUILT_KINDS].sort());
  expect(kinds.filter((k) => kindClass(k) === undefined)).toEqual([]);
  expect(Object.keys(KIND_CLASSES).sort()).toEqual(kinds);
  expect(kindClass('smoke_signal')).toBeUndefined();
  expect(kindClass('toString')).toBeUndefined();
});

it('stands in for every kind that leaves the process', () => {
  expect(Object.entries(KIND_CLASSES).filter(([, c]) => c === 'outbound').map(([k]) => k).sort()).toEqual(['aws', 'command', 'database', 'discover', 'document_operation', 'google', 'sftp']);
  expect(Object.entries(KIND_CLASSES).filter(([, c]) => c === 'captured').map(([k]) => k).sort()).toEqual(['email', 'emit_metric', 'mqtt_publish', 'ws_publish']);
});
