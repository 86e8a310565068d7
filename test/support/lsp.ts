// A minimal Language Server Protocol client over stdio (Content-Length framed JSON-RPC): enough to
// open a document in a real language server and ask for its diagnostics and completions.
import { spawn, type ChildProcess } from 'node:child_process';

type Message = { id?: number; method?: string; params?: any; result?: any; error?: any };

export class LspClient {
  private child: ChildProcess;
  private buf = Buffer.alloc(0);
  private next = 1;
  private pending = new Map<number, (m: Message) => void>();
  private listeners: Array<(m: Message) => void> = [];

  constructor(command: string, args: string[], private settings: unknown) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d: Buffer) => this.read(d));
  }

  private read(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const len = Number(/Content-Length: (\d+)/i.exec(this.buf.subarray(0, end).toString())?.[1]);
      if (this.buf.length < end + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString()) as Message;
      this.buf = this.buf.subarray(end + 4 + len);
      this.dispatch(msg);
    }
  }

  private dispatch(m: Message): void {
    if (m.id !== undefined && m.method === undefined) { this.pending.get(m.id)?.(m); this.pending.delete(m.id); return; }
    // A request from the server: answer it (its configuration, or nothing) so it never waits on us.
    if (m.id !== undefined && m.method) {
      const result = m.method === 'workspace/configuration' ? (m.params.items as unknown[]).map(() => (this.settings as { yaml: unknown }).yaml) : null;
      this.send({ id: m.id, result });
    }
    for (const l of this.listeners) l(m);
  }

  private send(m: object): void {
    const body = JSON.stringify({ jsonrpc: '2.0', ...m });
    this.child.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  request(method: string, params: unknown): Promise<any> {
    const id = this.next++;
    return new Promise((ok, fail) => {
      this.pending.set(id, (m) => (m.error ? fail(new Error(JSON.stringify(m.error))) : ok(m.result)));
      this.send({ id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  /** The first notification `method` whose params satisfy `match`. */
  waitFor(method: string, match: (params: any) => boolean): Promise<any> {
    return new Promise((ok) => {
      const l = (m: Message) => { if (m.method === method && match(m.params)) { this.listeners.splice(this.listeners.indexOf(l), 1); ok(m.params); } };
      this.listeners.push(l);
    });
  }

  async start(): Promise<void> {
    await this.request('initialize', {
      processId: process.pid, rootUri: null,
      capabilities: { workspace: { configuration: true }, textDocument: { completion: { completionItem: { snippetSupport: false } }, publishDiagnostics: {}, hover: { contentFormat: ['plaintext'] } } },
    });
    this.notify('initialized', {});
    this.notify('workspace/didChangeConfiguration', { settings: this.settings });
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}
