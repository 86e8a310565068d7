// The fault harness's Postgres proxy (bench/faults/pg-proxy.ts), for tests that cut the store away.
export { pgProxy, type PgProxy } from '../../bench/faults/pg-proxy.ts';
