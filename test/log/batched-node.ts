// A process logging through the server's stdout logger (runtime/log/logger.ts): lines of every size
// and of non-ASCII text (batched as UTF-8 bytes), one line longer than a whole batch, then one line
// alone after a pause (handed over by the timer, not by the exit), then the exit.
import { processEnvironment } from '../../runtime/environment.ts';
import { createLogger } from '../../runtime/log/logger.ts';
import { redactorOf } from '../../runtime/values/redact.ts';

const log = createLogger({ level: 'info', pretty: false }, redactorOf(processEnvironment({})));
const texts = ['é', '漢字', '😀', '\ud800', 'x'];
for (let i = 0; i < 3000; i++) log.info({ i, text: texts[i % texts.length]!.repeat(i % 97) }, `line ${i}`);
log.info({ long: 'ü'.repeat(40_000) }, 'long');
await new Promise((r) => setTimeout(r, 400));
process.stderr.write('paused\n');
log.info('quiet');
await new Promise((r) => setTimeout(r, 1500));
