// Request and run ids (runtime/uuid.ts): version 4 UUIDs as crypto.randomUUID writes them, flat,
// distinct across entropy refills, and the default of processEnvironment's uuid.
import { expect, it } from 'vitest';
import { randomUuid } from '../../runtime/uuid.ts';
import { processEnvironment } from '../../runtime/environment.ts';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

it('writes version 4, variant 10 UUIDs in lower case, each one new (over many entropy refills)', () => {
  const seen = new Set<string>();
  const variants = new Set<string>();
  const nibbles = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const u = randomUuid();
    expect(u).toMatch(V4);
    variants.add(u[19]!);
    for (const c of u.replaceAll('-', '').slice(13)) nibbles.add(c);
    seen.add(u);
  }
  expect(seen.size).toBe(5000);
  // Every variant digit and every hex digit turns up: no bits stuck by the formatting.
  expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  expect(nibbles.size).toBe(16);
});

it('names runs and requests by default', () => {
  expect(processEnvironment({}).uuid()).toMatch(V4);
});
