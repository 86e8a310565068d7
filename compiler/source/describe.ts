// Human words for a place in the config ("retry.attempts in action \"Fetch\""), used in messages.
import type { ConfigPath } from './yaml.ts';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The name references use: `name`, else `action`, else its 1-based position. */
export function actionName(action: unknown, index: number): string {
  if (isObj(action)) {
    if (typeof action.name === 'string') return action.name;
    if (typeof action.action === 'string') return action.action;
  }
  return `#${index + 1}`;
}

/** The nearest named owner of `path` (an action, an interface, an MCP server or the config) and the rest of the path. */
export function describePath(config: unknown, path: ConfigPath): { owner: string; rel: string } {
  let owner = 'the config';
  let i = 0;
  if (path[0] === 'interfaces' && path.length >= 2) {
    owner = `interface "${path[1]}"`;
    i = 2;
    let node = get(config, path.slice(0, 2));
    while (path[i] === 'actions' && i + 1 < path.length && isIndex(path[i + 1])) {
      const idx = Number(path[i + 1]);
      node = get(node, ['actions', idx]);
      owner = `action "${actionName(node, idx)}"`;
      i += 2;
    }
  } else if (path[0] === 'mcp_servers' && path.length >= 2) {
    owner = `MCP server "${path[1]}"`;
    i = 2;
  }
  return { owner, rel: formatPath(path.slice(i)) };
}

/** `retry.attempts in action "Fetch"`, or just the owner when the path is the owner itself. */
export function describeSubject(config: unknown, path: ConfigPath): string {
  const { owner, rel } = describePath(config, path);
  return rel ? `${rel} in ${owner}` : owner;
}

/** `post_transforms[2].math`. */
export function formatPath(path: ConfigPath): string {
  return path.map((s, i) => (isIndex(s) ? `[${s}]` : i === 0 ? String(s) : `.${s}`)).join('');
}

export function get(value: unknown, path: ConfigPath): unknown {
  let v = value;
  for (const seg of path) {
    if (Array.isArray(v)) v = v[Number(seg)];
    else if (isObj(v)) v = v[String(seg)];
    else return undefined;
  }
  return v;
}

const isIndex = (s: string | number | undefined): s is number => typeof s === 'number';
