// What a fan-out costs Node and the kernel alone, with no WebSocket and no pipewright: SOCKETS
// loopback TCP sockets, one 90-byte write to each per "publish", one publish at a time (READERS
// reader processes, 1 by default, report when all arrived), as the fanout benchmark's one-at-a-time
// phase does. Prints CPU
// µs per write (writer) and per read (reader); `fd` writes with fs.writeSync on the socket's file
// descriptor instead of the stream, to show what Node's stream layer adds.
// Run: node --import tsx bench/fanout-floor.ts [rounds] [stream|fd]
import { fork } from 'node:child_process';
import { writeSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

const SOCKETS = Number(process.env.SOCKETS ?? 1000);
const READERS = Number(process.env.READERS ?? 1);
const BYTES = 90;
const cpuUs = () => { const u = process.resourceUsage(); return u.userCPUTime + u.systemCPUTime; };

if (process.argv[2] === 'reader') {
  // A reader: its share of the connections, reading into one buffer (as bench/ws-reader.ts does).
  const port = Number(process.argv[3]), mine = Number(process.argv[4]);
  const read = Buffer.allocUnsafe(64 * 1024);
  let got = 0;
  for (let i = 0; i < mine; i++) {
    connect({ port, host: '127.0.0.1', onread: { buffer: read, callback: (n) => {
      got += n;
      if (got >= mine * BYTES) { got -= mine * BYTES; process.send!('all'); }
      return true;
    } } });
  }
  process.on('message', () => process.send!(cpuUs()));
  process.send!('ready');
} else {
  const rounds = Number(process.argv[2] ?? 200);
  const viaFd = process.argv[3] === 'fd';
  const sockets: Socket[] = [];
  const server = createServer((s) => { s.setNoDelay(true); sockets.push(s); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = String((server.address() as AddressInfo).port);
  const readers = Array.from({ length: READERS }, (_, i) => fork(new URL(import.meta.url).pathname, ['reader', port, String(Math.floor(SOCKETS / READERS) + (i < SOCKETS % READERS ? 1 : 0))], { execArgv: ['--import', 'tsx'] }));
  const next = () => Promise.all(readers.map((r) => new Promise<unknown>((resolve) => r.once('message', resolve))));
  await next();
  while (sockets.length < SOCKETS) await new Promise((r) => setTimeout(r, 10));
  const bytes = Buffer.alloc(BYTES, 'x');
  const fds = sockets.map((s) => (s as unknown as { _handle: { fd: number } })._handle.fd);
  const publish = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const all = next();
      if (viaFd) for (const fd of fds) writeSync(fd, bytes);
      else for (const s of sockets) s.write(bytes);
      await all;
    }
  };
  await publish(50);
  const cpu = async () => { const all = next(); for (const r of readers) r.send('cpu'); return ((await all) as number[]).reduce((a, b) => a + b, 0); };
  const r0 = await cpu(), w0 = cpuUs(), t0 = performance.now();
  await publish(rounds);
  const w1 = cpuUs(), t1 = performance.now(), r1 = await cpu();
  const per = (us: number) => +(us / (rounds * SOCKETS)).toFixed(2);
  console.log(JSON.stringify({ readers: READERS, write: viaFd ? 'fs.writeSync' : 'socket.write', writerUsPerWrite: per(w1 - w0), readerUsPerRead: per(r1 - r0), msPerPublish: +((t1 - t0) / rounds).toFixed(1) }));
  for (const r of readers) r.kill();
  process.exit(0);
}
