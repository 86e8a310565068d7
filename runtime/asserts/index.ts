// The assertion vocabulary by config key. A null-prototype object, so a config key such as
// "constructor" or "__proto__" is an unknown operator rather than an inherited property.
import { op as contains } from './contains.ts';
import { op as is_between } from './is_between.ts';
import { op as is_empty } from './is_empty.ts';
import { op as is_equal_to } from './is_equal_to.ts';
import { op as is_greater_than } from './is_greater_than.ts';
import { op as is_greater_than_or_equal_to } from './is_greater_than_or_equal_to.ts';
import { op as is_less_than } from './is_less_than.ts';
import { op as is_less_than_or_equal_to } from './is_less_than_or_equal_to.ts';
import { op as is_not_empty } from './is_not_empty.ts';
import { op as is_not_equal_to } from './is_not_equal_to.ts';
import { op as is_not_null } from './is_not_null.ts';
import { op as is_null } from './is_null.ts';
import { op as is_one_of } from './is_one_of.ts';
import { op as is_type } from './is_type.ts';
import { op as is_valid_hmac } from './is_valid_hmac.ts';
import { op as is_valid_totp } from './is_valid_totp.ts';
import { op as regex } from './regex.ts';
import type { AssertOp } from './types.ts';

export type { AssertOp } from './types.ts';

export const asserts: Record<string, AssertOp> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, AssertOp>, {
    is_equal_to, is_not_equal_to, is_null, is_not_null, is_empty, is_not_empty,
    is_greater_than, is_greater_than_or_equal_to, is_less_than, is_less_than_or_equal_to,
    is_between, regex, contains, is_one_of, is_type,
    is_valid_hmac, is_valid_totp,
  }),
);
