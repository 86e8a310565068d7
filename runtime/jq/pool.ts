// jq programs that may run a regex (runtime/jq/regex.ts) run here from the request path: a small pool
// of worker threads (POOL_SIZE) answered through a Promise, so the event loop keeps serving while
// Oniguruma backtracks. A worker past its deadline is terminated and replaced on next need; callers
// beyond the pool's size wait in line (their deadline starts when a worker takes their program), at most
// MAX_WAITING of them: a flood of hostile programs is refused at once rather than queued without end.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { jqCore } from './core.ts';
import { DEEP_STACK_MB, type DeepReply } from './deep.ts';

/**
 * One worker per core beyond the first, at most two: a catastrophic regex keeps its worker's core busy
 * until the deadline, and the event loop must keep a core of its own (on two cores, two spinning workers
 * cut plain requests to 0.04× of their rate, one worker to 0.12×: bench/jq-regex.ts). The cost: on two
 * cores a hostile program delays other regex programs (not other requests) up to its deadline.
 */
export const POOL_SIZE = Math.min(2, Math.max(1, availableParallelism() - 1));
const START_TIMEOUT_MS = 30_000;
/** Programs waiting for a worker beyond which a new one is refused (each may hold its worker up to its deadline). */
export const MAX_WAITING = 64;

// Runs in each worker: one reply per request, tagged with its id. A first run before `started` keeps the
// engine's warm-up out of the first program's deadline. (`__name`: see deep.ts.)
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { glue, module, maxPrograms } = workerData;
const __name = (f) => f;
let core, failed;
try { core = (${jqCore.toString()})(glue, module, maxPrograms); core.exec('.', '0'); } catch (e) { failed = String(e && e.message || e); }
parentPort.postMessage({ started: true });
parentPort.on('message', ({ id, program, text }) => {
  let reply;
  try { reply = failed ? { trap: failed, range: false } : { ok: core.exec(program, text) }; }
  catch (e) { reply = { trap: String(e && e.message || e), range: e instanceof RangeError }; }
  parentPort.postMessage({ id, reply });
});
`;

interface Job { program: string; text: string; timeoutMs: number; done: (r: DeepReply) => void }
interface Slot { worker: Worker; ready: Promise<boolean>; job?: Job; /** Its 'error' event's message (an uncaught exception in the worker). */ failure?: string }

const slots: Slot[] = [];
const waiting: Job[] = [];
let nextId = 0;

/** exec(program, text) on a pool worker; given up (worker replaced) after timeoutMs of running. */
export function poolExec(glue: string, module: object, maxPrograms: number, program: string, text: string, timeoutMs: number): Promise<DeepReply> {
  if (waiting.length >= MAX_WAITING) return Promise.resolve({ busy: waiting.length });
  return new Promise((done) => {
    waiting.push({ program, text, timeoutMs, done });
    dispatch(glue, module, maxPrograms);
  });
}

function dispatch(glue: string, module: object, maxPrograms: number): void {
  while (waiting.length) {
    let slot = slots.find((s) => !s.job);
    if (!slot) {
      if (slots.length >= POOL_SIZE) return;
      slot = start(glue, module, maxPrograms);
    }
    slot.job = waiting.shift()!;
    void run(slot, slot.job, () => dispatch(glue, module, maxPrograms));
  }
}

async function run(slot: Slot, job: Job, next: () => void): Promise<void> {
  const finish = (r: DeepReply, keep: boolean) => {
    if (keep) slot.job = undefined;
    else retire(slot);
    job.done(r);
    next();
  };
  // Starting a worker (compiling the wasm) is not the program's time: wait for it apart.
  if (!(await slot.ready)) return finish({ trap: slot.failure ? failed(slot.failure) : `the jq worker did not start within ${START_TIMEOUT_MS / 1000} s`, range: false }, false);
  const id = nextId++;
  const timer = setTimeout(() => { off(); finish({ timeout: job.timeoutMs }, false); }, job.timeoutMs);
  const onMessage = (m: { id?: number; reply?: DeepReply }) => {
    if (m.id !== id) return;
    off();
    // A trapped instance is not reused.
    finish(m.reply!, !('trap' in m.reply!));
  };
  // The worker threw outside a program's run (it dies): the call fails with what it threw.
  const onError = (e: Error) => { off(); finish({ trap: failed(messageOf(e)), range: e instanceof RangeError }, false); };
  const onExit = () => { off(); finish({ trap: slot.failure ? failed(slot.failure) : 'the jq worker gave no answer', range: false }, false); };
  const off = () => { clearTimeout(timer); slot.worker.off('message', onMessage); slot.worker.off('error', onError); slot.worker.off('exit', onExit); };
  slot.worker.on('message', onMessage);
  slot.worker.on('error', onError);
  slot.worker.on('exit', onExit);
  slot.worker.postMessage({ id, program: job.program, text: job.text });
}

function start(glue: string, module: object, maxPrograms: number): Slot {
  const worker = new Worker(WORKER, { eval: true, workerData: { glue, module, maxPrograms }, resourceLimits: { stackSizeMb: DEEP_STACK_MB } });
  worker.unref(); // an idle pool never keeps the process alive; a pending job's timer does
  const slot = { worker } as Slot;
  // Always listened to, so a failing worker never crashes the host; its message fails the call (run).
  worker.on('error', (e: Error) => { slot.failure = messageOf(e); });
  // A worker that dies idle is replaced on next need (one running a job is retired by run).
  worker.once('exit', () => { if (!slot.job) retire(slot); });
  slot.ready = new Promise<boolean>((resolve) => {
    const t = setTimeout(() => resolve(false), START_TIMEOUT_MS);
    t.unref();
    const onStart = (m: { started?: boolean }) => { if (m.started) { clearTimeout(t); worker.off('message', onStart); resolve(true); } };
    worker.on('message', onStart);
    worker.once('exit', () => { clearTimeout(t); resolve(false); });
  });
  slots.push(slot);
  return slot;
}

const failed = (message: string) => `the jq worker failed: ${message}`;

/** An Error crosses from the worker with its message; some values (a DOMException) arrive as `{}`. */
const messageOf = (e: unknown): string => {
  const m = (e as Error | undefined)?.message;
  return typeof m === 'string' && m ? m : 'an uncaught error whose text did not reach the main thread';
};

function retire(slot: Slot): void {
  const i = slots.indexOf(slot);
  if (i >= 0) slots.splice(i, 1);
  void slot.worker.terminate();
}
