// Shared by the realtime tests: a config with WebSocket interfaces and a client that queues frames.
import WebSocket from 'ws';

export const config = `
interfaces:
  echo:
    ws: true
    public: true
    subscribe_authorizer: anyone
    actions:
      - name: Echo
        input: { got: a|body|, via: a|params::via->default("none")| }
        output: http
  strict:
    ws: true
    subscribe_authorizer: anyone
    assert:
      tests: [{ value: a|body::n|, is_greater_than: 0 }]
    actions: [{ name: N, input: a|body|, output: http }]
  feed:
    ws: true
    public: true
    subscribe_authorizer: may_subscribe
    actions: [{ name: F, input: a|body|, output: http }]
  anyone:
    actions: [{ name: Yes, input: "yes" }]
  may_subscribe:
    actions:
      - name: Check
        input: a|body::channel|
        assert:
          tests: [{ value: a|body::channel|, regex: "^news-" }]
  announce:
    method: POST
    actions:
      - name: Send
        ws_publish:
          channels: a|body::channels|
          data: a|body::data|
          retain: a|body::retain->default(false)|
        output: http
`;

export function open(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; frames: any[]; next: () => Promise<any> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const frames: any[] = [];
    const waiters: Array<(f: any) => void> = [];
    ws.on('message', (d: Buffer) => { const f = JSON.parse(d.toString()); const w = waiters.shift(); if (w) w(f); else frames.push(f); });
    ws.on('open', () => resolve({ ws, frames, next: () => (frames.length ? Promise.resolve(frames.shift()) : new Promise((r) => waiters.push(r))) }));
    ws.on('unexpected-response', (_req, res) => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })));
    ws.on('error', reject);
  });
}

