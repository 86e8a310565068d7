// `ws_publish`: sends `data` (default: the request body) to every socket subscribed to the channels,
// on this node and every other; `retain` keeps it as the channel's value for later subscribers.
// It does not wait for the sockets. Data: {channels, retained}.
import type { ActionKind } from './types.ts';
import { flagOn, nameList } from './targets.ts';

export const wsPublish: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as { channels?: unknown; data?: unknown; retain?: unknown };
  const channels = nameList(c.channels, 'channels');
  if (typeof channels === 'string') return { ok: false, error: `ws_publish: ${channels}`, failure: { kind: 'other' } };
  if (!ctx.services.channels) return { ok: false, error: 'ws_publish: WebSocket channels are not available here (serve the config)', failure: { kind: 'other' } };
  const retain = flagOn(c.retain);
  await ctx.services.channels.publish(channels, c.data === undefined ? (ctx.scope.body ?? null) : c.data, retain);
  return { ok: true, data: { channels, retained: retain } };
};
