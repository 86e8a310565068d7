// Apps retired by a reload (runtime/server/host.ts): their connections carry on with the next
// generation, so closing them is not a shutdown (no `Connection: close`; WebSockets are told to
// reconnect with 1012 "service restart" rather than cut).
import type { FastifyInstance } from 'fastify';

const reloaded = new WeakSet<FastifyInstance>();
export const markReloaded = (app: FastifyInstance): void => { reloaded.add(app); };
export const isReloaded = (app: FastifyInstance): boolean => reloaded.has(app);
