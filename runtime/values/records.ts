// Maps keyed by config-named data (action names): nothing in their prototype chain, as
// Object.create(null) gives, but made in V8's fast mode. Object.create(null) makes a dictionary-mode
// object, ~3x larger (about 190 bytes empty against 60) and slower to make and to copy; a run makes
// two (its steps, its sequence's failures) and a lookup two per item. The prototype they have
// instead of none is a frozen object with no properties and a null prototype of its own: no
// `constructor`, no `__proto__` setter (a key of that name is data), nothing inherited; JSON, the
// runs API and captures see the same keys. Only Object.getPrototypeOf tells them apart.

/** `new Records()`: an empty map of records by name. */
export const Records = function Records() {} as unknown as new () => Record<string, never>;
Records.prototype = Object.freeze(Object.create(null));
