// Bench only, loaded into each harness node (`node --expose-gc --import <this> server.mjs`): on
// SIGUSR2 a full GC, then the process's own memory and handle counts written next to its log, so
// the harness reads the retained heap (what a leak grows), not the allocator's high-water mark.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.PW_FAULTS_PROBE_DIR;
if (dir) {
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    const m = process.memoryUsage();
    const out = { gc: typeof globalThis.gc === 'function', rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, resources: process.getActiveResourcesInfo().length };
    const file = join(dir, `${process.pid}.probe.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(out));
    renameSync(`${file}.tmp`, file);
  });
}
