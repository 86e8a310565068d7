// One record per client connection, with one 'close' listener, shared by the drain (the responses
// under way when shutdown starts get `Connection: close`: runtime/server/drain.ts) and the runs'
// cancellation (a client that goes away aborts the runs under way on its connection:
// runtime/server/cancel.ts), rather than a listener each.
import type { Socket } from 'node:net';
import type { RunCancel } from '../run-cancel.ts';

export interface Connection {
  /** The run under way (a keep-alive connection carries one request at a time)… */
  run: RunCancel | undefined;
  /** …and any further ones (pipelined requests), rarely. */
  more: Set<RunCancel> | undefined;
  /** What else the close does (the drain forgets the connection). */
  onClose: (() => void) | undefined;
}

const CONNECTION = Symbol('pipewright.connection');
type Tracked = Socket & { [CONNECTION]?: Connection };

/** The socket's record, made with its 'close' listener on first need. */
export function connectionOf(socket: Socket): Connection {
  const s = socket as Tracked;
  let c = s[CONNECTION];
  if (c) return c;
  const made: Connection = (c = s[CONNECTION] = { run: undefined, more: undefined, onClose: undefined });
  socket.once('close', () => {
    const runs = made.run ? [made.run, ...(made.more ?? [])] : [...(made.more ?? [])];
    made.run = made.more = undefined;
    for (const r of runs) r.abort(new Error('the client disconnected'));
    made.onClose?.();
  });
  return c;
}
