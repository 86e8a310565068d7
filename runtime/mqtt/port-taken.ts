// The embedded broker's TCP port is taken: the start stops with this message. Its own file, so the
// start-up error printer (runtime/server/startup-errors.ts) names it without loading the broker.
export class BrokerPortTaken extends Error {}
