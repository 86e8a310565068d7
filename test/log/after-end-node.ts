// A process logging through the server's stdout logger (runtime/log/logger.ts) after the logger has
// ended: while its stream is closing, then after it closed. Every line must still reach stdout.
import pino from 'pino';
import { processEnvironment } from '../../runtime/environment.ts';
import { createLogger } from '../../runtime/log/logger.ts';
import { redactorOf } from '../../runtime/values/redact.ts';

const log = createLogger({ level: 'info', pretty: false }, redactorOf(processEnvironment({})));
const stream = (log as unknown as Record<symbol, NodeJS.EventEmitter & { end(): void }>)[pino.symbols.streamSym]!;
log.info('before end');
stream.end();
log.info('while closing');
await new Promise((r) => stream.once('close', r));
for (let i = 0; i < 3; i++) log.info(`after end ${i}`);
