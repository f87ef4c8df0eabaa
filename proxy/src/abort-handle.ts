/**
 * An admitted request's abort (the client left, the key was revoked, the proxy drains): what an AbortController
 * gave the exchange, without an EventTarget per request. Node's AbortSignal costs ~6-14 µs to create and listen
 * on (node 20, isolated; `createAbortSignal` and its listener bookkeeping ~16 µs a request in the proxy's profile
 * under load); this is a flag, a reason and a short list of listeners. An API that takes an AbortSignal (a
 * timer's sleep) gets one made on first use and aborted with this handle.
 */
export class AbortHandle {
  aborted = false;
  /** What `abort` was given: a GatewayError for a revocation (the error to send), undefined for a disconnect. */
  reason: unknown = undefined;
  private listeners: Array<() => void> = [];
  private controller: AbortController | undefined;

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
    this.controller?.abort(reason);
  }

  /** Runs `listener` once, on abort (never when already aborted: check `aborted` first). */
  onAbort(listener: () => void): void {
    this.listeners.push(listener);
  }

  offAbort(listener: () => void): void {
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }

  /** An AbortSignal that aborts with this handle, for APIs that take one. */
  asSignal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }
}
