// Writing config-named keys: always an own data property, so a name such as "__proto__" is data.
export function setOwn(o: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else (o as Record<string, unknown>)[key] = value;
}
