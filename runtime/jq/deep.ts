// Deep nesting: jq recurses once per level when it prints, compares or frees a value, and the main
// thread's JS stack (~1 MB) holds about 5,000 such levels. A call that overflows it is run again, still
// synchronously, in a worker thread with a larger stack (started on first need), so that jq answers
// wherever native jq does (10,000 levels: jq's own limit); beyond that a clear error names the limit.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { jqCore } from './core.ts';

/** The deep worker's JS stack; its wasm stack is the engine's (vendor/build/build.sh). */
export const DEEP_STACK_MB = 256; // also named in limits.ts
/** A deep call that takes longer than this is given up (the worker is replaced). */
const DEEP_TIMEOUT_MS = 60_000;
const START_TIMEOUT_MS = 30_000;

// Runs in the worker: answers each request with exec's result or the trap's message; a first run before
// `started` keeps the engine's warm-up out of the deadline. (`__name`: the helper some TS transforms
// insert into jqCore's source.)
const WORKER = `
const { workerData } = require('node:worker_threads');
const { glue, module, port, flag, maxPrograms } = workerData;
const __name = (f) => f;
let core, failed;
try { core = (${jqCore.toString()})(glue, module, maxPrograms); core.exec('.', '0'); } catch (e) { failed = String(e && e.message || e); }
Atomics.store(flag, 1, 1); // started: the caller's deadline counts from here
Atomics.notify(flag, 1);
port.on('message', ({ program, text }) => {
  let reply;
  try { reply = failed ? { trap: failed, range: false } : { ok: core.exec(program, text) }; }
  catch (e) { reply = { trap: String(e && e.message || e), range: e instanceof RangeError }; }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

interface Deep { worker: Worker; port: MessagePort; flag: Int32Array }
let deep: Deep | undefined;

export type DeepReply = { ok: string } | { trap: string; range: boolean } | { timeout: number } | { busy: number };

/** exec(program, text) in the deep worker, synchronously; given up (worker replaced) after timeoutMs. */
export function deepExec(glue: string, module: object, maxPrograms: number, program: string, text: string | null, timeoutMs = DEEP_TIMEOUT_MS): DeepReply {
  deep ??= startDeep(glue, module, maxPrograms);
  const { port, flag } = deep;
  // Starting a worker (compiling the wasm) is not the program's time: wait for it apart.
  if (Atomics.wait(flag, 1, 0, START_TIMEOUT_MS) === 'timed-out') {
    stopDeep();
    return { trap: `the deep worker did not start within ${START_TIMEOUT_MS / 1000} s`, range: false };
  }
  Atomics.store(flag, 0, 0);
  port.postMessage({ program, text });
  const woke = Atomics.wait(flag, 0, 0, timeoutMs);
  const msg = receiveMessageOnPort(port);
  if (woke === 'timed-out' || !msg) {
    stopDeep();
    return woke === 'timed-out' ? { timeout: timeoutMs } : { trap: 'the deep worker gave no answer', range: false };
  }
  const reply = msg.message as DeepReply;
  if ('trap' in reply) stopDeep(); // a trapped instance is not reused
  return reply;
}

function startDeep(glue: string, module: object, maxPrograms: number): Deep {
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { glue, module, port: port2, flag, maxPrograms },
    transferList: [port2],
    resourceLimits: { stackSizeMb: DEEP_STACK_MB },
  });
  worker.on('error', () => {}); // a failing worker is seen as a missing answer, never as a host crash
  worker.unref();
  port1.unref();
  return { worker, port: port1, flag };
}

function stopDeep(): void {
  void deep?.worker.terminate();
  deep = undefined;
}
