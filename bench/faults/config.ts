// The config every node of the fault harness serves: one interface per kind of work the load mixes.
// Every side effect goes to the ledger (an upstream that records the request id and the action).
export const FAULTS_CONFIG = `
interfaces:
  order:
    method: POST
    actions:
      - name: Charge
        http:
          url: a|var::LEDGER|/flaky
          method: POST
          body: { id: a|body::id|, action: Charge }
          timeout: 1500ms
          idempotency: {}
        retry: { attempts: 5, delay: 100ms, exponential_backoff: true, max_delay: 1s }
        output: http
  slow:
    method: POST
    actions:
      - name: Wait
        delay: 1500ms
      - name: Finish
        http:
          url: a|var::LEDGER|/effect
          method: POST
          body: { id: a|body::id|, action: Finish }
        retry: { attempts: 5, delay: 200ms, exponential_backoff: true, max_delay: 2s }
        output: http
  approve:
    method: POST
    actions:
      - name: Token
        input: a|uuid|
      - name: Ask
        http:
          url: a|var::LEDGER|/register
          method: POST
          body: { id: a|body::id|, token: a|Token| }
      - name: Approval
        wait_for_callback: { token: a|Token|, timeout: 10m }
      - name: Approved
        http:
          url: a|var::LEDGER|/effect
          method: POST
          body: { id: a|body::id|, action: Approved, by: a|Approval::by| }
        retry: { attempts: 5, delay: 200ms, exponential_backoff: true, max_delay: 2s }
        output: http
  sensor:
    mqtt: faults/+
    actions:
      - name: Record
        http:
          url: a|var::LEDGER|/effect
          method: POST
          body: { id: a|body::id|, action: Record }
        retry: { attempts: 5, delay: 200ms, exponential_backoff: true, max_delay: 2s }
  announce:
    method: POST
    actions:
      - name: Send
        ws_publish: { channels: [news], data: { id: a|body::id| } }
        output: http
  feed:
    ws: true
    public: true
    subscribe_authorizer: anyone
    actions: [{ name: F, input: a|body|, output: http }]
  anyone:
    actions: [{ name: Yes, input: "yes" }]
  tick:
    schedule: { cron: "* * * * *", enabled: true }
    actions:
      - name: Ping
        http:
          url: a|var::LEDGER|/tick
          method: POST
          body: { action: Tick }
`;
