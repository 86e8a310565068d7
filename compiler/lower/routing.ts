// Which interfaces answer HTTP. An interface another trigger runs (a schedule, the on_error handler,
// a subscribe/list authorizer, a ws/mqtt/mcp interface) is not an HTTP endpoint unless the config
// says so by declaring `method`; `output: cli` interfaces are run only by the CLI.
type Obj = Record<string, unknown>;

/** Names of interfaces run by other parts of the config (error handler, authorizers). */
export function internalTargets(config: Obj): Set<string> {
  const out = new Set<string>();
  const onError = config.on_error as Obj | undefined;
  if (typeof onError?.interface === 'string') out.add(onError.interface);
  for (const i of Object.values((config.interfaces as Obj) ?? {}) as Obj[]) {
    if (typeof i?.subscribe_authorizer === 'string') out.add(i.subscribe_authorizer);
    const mcp = i?.mcp as Obj | undefined;
    if (typeof mcp?.list_authorizer === 'string') out.add(mcp.list_authorizer);
  }
  return out;
}

export function isRouted(name: string, i: Obj, internal: Set<string>): boolean {
  if (i.output === 'cli') return false;
  const otherTrigger = i.schedule !== undefined || i.ws !== undefined || i.mqtt !== undefined || i.mcp !== undefined || internal.has(name);
  return !otherTrigger || typeof i.method === 'string';
}
