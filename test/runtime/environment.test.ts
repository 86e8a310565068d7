// The process environment as an Environment: a copy made when it is created (environments are fixed at
// start, and a read of process.env costs about half a microsecond), names that are Object's members
// kept as data.
import { afterEach, describe, expect, it } from 'vitest';
import { processEnvironment } from '../../runtime/environment.ts';

afterEach(() => { delete process.env.SERVICE__VAR__PW_ENV_TEST; delete process.env.SERVICE__SECRET__PW_ENV_TEST; });

describe('processEnvironment', () => {
  it('reads the environment as it was when made, not as it is later', () => {
    process.env.SERVICE__VAR__PW_ENV_TEST = 'first';
    process.env.SERVICE__SECRET__PW_ENV_TEST = 'secret-1';
    const env = processEnvironment();
    process.env.SERVICE__VAR__PW_ENV_TEST = 'second';
    delete process.env.SERVICE__SECRET__PW_ENV_TEST;
    expect(env.variable('PW_ENV_TEST')).toBe('first');
    expect(env.secret('PW_ENV_TEST')).toBe('secret-1');
    expect(processEnvironment().variable('PW_ENV_TEST')).toBe('second');
  });

  it('answers nothing for a name that is a member of Object', () => {
    const env = processEnvironment();
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(env.env(name), name).toBeUndefined();
  });
});
