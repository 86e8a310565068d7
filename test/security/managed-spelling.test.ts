// SERVICE__MANAGED_MODE is one setting with one reading (1 or true): the outbound policy reads it the
// way command actions and multipart parts do.
import { describe, expect, it } from 'vitest';
import { outboundPolicy } from '../../runtime/network/outbound.ts';

describe('managed mode spelling', () => {
  it('denies private ranges outbound for "true" as for "1", and not when unset', () => {
    expect(outboundPolicy({ SERVICE__MANAGED_MODE: 'true' }).managed).toBe(true);
    expect(outboundPolicy({ SERVICE__MANAGED_MODE: '1' }).managed).toBe(true);
    expect(outboundPolicy({}).managed).toBe(false);
  });
});
