// Preloaded into the fanout benchmark's server (`node --import`): its event loop's delay
// (perf_hooks.monitorEventLoopDelay, 1 ms resolution), written to stderr as one
// `fanout-probe {json}` line and reset on SIGUSR2, so bench/fanout.ts reads it for each phase.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const h = monitorEventLoopDelay({ resolution: 1 });
h.enable();
const ms = (ns) => +(ns / 1e6).toFixed(1);
process.on('SIGUSR2', () => {
  process.stderr.write(`fanout-probe ${JSON.stringify({ p50Ms: ms(h.percentile(50)), p99Ms: ms(h.percentile(99)), maxMs: ms(h.max) })}\n`);
  h.reset();
});
