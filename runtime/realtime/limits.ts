// Per-socket bounds (docs/realtime.md): every count and size a client controls is capped.
import { numberSetting } from '../values/number-setting.ts';

/** The most of the event loop's time a sustained fan-out takes (0 < share ≤ 1; 1: every turn). Here,
 *  not in hub.ts: the server reads these limits at every start, and hub.ts brings ws with it. */
export const DEFAULT_FANOUT_SHARE = 0.5;

export interface WsLimits {
  /** Largest text frame accepted; larger ones get an error frame (the socket stays open). */
  maxFrameBytes: number;
  /** Channels one socket may subscribe to. */
  maxSubscriptions: number;
  /** Runs one socket may have under way at once. */
  maxInFlight: number;
  /** Bytes queued for a socket before it is closed with 1013 (a slow consumer never grows memory). */
  maxBufferedBytes: number;
  /** Ping interval; a socket that missed the previous pong is closed. */
  pingMs: number;
  /** Not per socket: the most of the event loop's time a sustained fan-out takes (hub.ts), 0–1. */
  fanoutShare: number;
}

export const DEFAULT_WS_LIMITS: WsLimits = { maxFrameBytes: 64 * 1024, maxSubscriptions: 100, maxInFlight: 16, maxBufferedBytes: 1024 * 1024, pingMs: 30_000, fanoutShare: DEFAULT_FANOUT_SHARE };

/** The limits from SERVICE__WS_* settings; a malformed value throws (the start refuses it, naming
 *  the variable: runtime/server/main.ts), never a silent default. */
export function wsLimitsFrom(env: Record<string, string | undefined>): WsLimits {
  const n = (k: string, d: number, max?: number) => numberSetting(env, k, d, { min: 1, max, whole: true });
  return {
    maxFrameBytes: n('SERVICE__WS_MAX_FRAME_BYTES', DEFAULT_WS_LIMITS.maxFrameBytes),
    maxSubscriptions: n('SERVICE__WS_MAX_SUBSCRIPTIONS', DEFAULT_WS_LIMITS.maxSubscriptions),
    maxInFlight: DEFAULT_WS_LIMITS.maxInFlight,
    maxBufferedBytes: n('SERVICE__WS_MAX_BUFFERED_BYTES', DEFAULT_WS_LIMITS.maxBufferedBytes),
    pingMs: n('SERVICE__WS_PING_MS', DEFAULT_WS_LIMITS.pingMs),
    // A percentage, 1–100 (100: a flush at the end of every turn that published).
    fanoutShare: n('SERVICE__WS_FANOUT_SHARE', DEFAULT_WS_LIMITS.fanoutShare * 100, 100) / 100,
  };
}
