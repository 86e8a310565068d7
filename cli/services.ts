// Services for one-shot commands (`run`, `test`): the same store and limits a server would use.
import { DEFAULT_MAX_DELAY_MS, systemClock, type Services, openStore } from '../runtime/index.ts';

export async function cliServices(): Promise<Services> {
  const store = await openStore(process.env);
  return { clock: systemClock, store, maxDelayMs: Number(process.env.SERVICE__MAX_DELAY_SECS ?? DEFAULT_MAX_DELAY_MS / 1000) * 1000 };
}
