// The contract of a benchmark scenario (one file per scenario under bench/scenarios/, or a family of
// generated ones in one file): a config that
// pipewright serves three ways (fast path, interpreter, bundle), one request that drives it, and the
// same work written by hand the idiomatic way (fastify + undici) as the baseline every answer is
// checked against. The upstream each config may call is bench/upstream.ts, at `a|var::UPSTREAM|`.
import type { FastifyInstance } from 'fastify';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A ratio a scenario is held to: req/s of `of` over req/s of `over` must be at least `min`. */
export interface Target {
  of: ServerName;
  over: ServerName;
  min: number;
}

export type ServerName = 'fast' | 'interpreter' | 'bundle' | 'hand_written';

export interface Scenario {
  name: string;
  /** A generated family's module under bench/scenarios/ (exporting `scenarios`); `--only <family>` runs them all. */
  family?: string;
  /** One line for the table. */
  summary: string;
  /** The pipewright config (YAML). */
  config: string;
  request: BenchRequest;
  /** Registers the hand-written route(s) on a fresh fastify app; `upstream` is the upstream base URL. */
  handWritten(app: FastifyInstance, o: { upstream: string }): void | Promise<void>;
  targets: Target[];
  /** Concurrent connections when the default (20) would only measure queueing (a request that fans out). */
  connections?: number;
}
