// A run's cancellation (its HTTP client went away) without an AbortSignal until something asks for
// one: a signal per request (an EventTarget, promoted by the young GC under load) showed in profiles,
// and the usual run never needs it. The http action is told through onAbort; action kinds that hand
// a signal to a library get the real one, made on first read.
export class RunCancel {
  aborted = false;
  reason: unknown = undefined;
  private controller: AbortController | undefined;
  private listener: ((reason: unknown) => void) | undefined;
  private more: Set<(reason: unknown) => void> | undefined;

  /** An AbortSignal that follows this cancellation (made on first read). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const fns = [...(this.listener ? [this.listener] : []), ...(this.more ?? [])];
    this.listener = this.more = undefined;
    this.controller?.abort(reason);
    for (const fn of fns) fn(reason);
  }

  /** `fn` is called once if the run is (or was already) cancelled before the returned function is called. */
  onAbort(fn: (reason: unknown) => void): () => void {
    if (this.aborted) { fn(this.reason); return () => {}; }
    if (!this.listener && !this.more?.size) this.listener = fn;
    else (this.more ??= new Set()).add(fn);
    return () => {
      if (this.listener === fn) this.listener = undefined;
      else this.more?.delete(fn);
    };
  }
}

/** What aborts an action's work: an AbortSignal, or the run's cancellation itself (no signal made). */
export type Abortable = AbortSignal | RunCancel;

/** Calls `fn` when `s` aborts (not if it already has: check `aborted` first); returns the unsubscribe. */
export function listenAbort(s: Abortable | undefined, fn: () => void): () => void {
  if (!s) return () => {};
  if (s instanceof RunCancel) return s.onAbort(fn);
  s.addEventListener('abort', fn, { once: true });
  return () => s.removeEventListener('abort', fn);
}
