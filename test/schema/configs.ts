// Realistic configs that must load with no diagnostics at all. Together they touch most of the format.

export const ORDERS = `# Orders API: HTTP triggers, retries, lookups, transforms, MCP.
expose_metrics: true
on_error:
  interface: alert
  status: [500, 502]
  max_per_minute: 6
mcp_servers:
  shop:
    title: Shop tools
    instructions: Tools for the shop back office.
    default: true
features:
  parse_pdf: false
interfaces:
  order_summary:
    summary: One order with its customer
    tags: [orders, public]
    method: GET
    route: /orders/:id
    output: http
    capture: { mode: errors, for_minutes: 30, for_runs: 100 }
    defaults:
      expect_status: [2xx, 304]
    params:
      id:
        value: a|params::id|
        error_message: id must be numeric
        validate: { regex: "^[0-9]+$" }
      limit:
        default_value: 10
        validate: { is_less_than: 100 }
    mcp:
      enabled: true
      tool_name: get_order
      server: shop
      list_authorizer: authorize
    accepts:
      example: { id: 1 }
    produces:
      schema: { type: object }
    actions:
      - name: Order
        http:
          url: https://api.example.com/orders/a|params::id|
          method: GET
          headers:
            Authorization: Bearer a|secret::API_TOKEN|
            X-Request-Id: a|uuid|
            X-Version: 2
          expect_status: [200, 404]
          timeout: 5s
          idempotency: { header: X-Idempotency-Key }
        retry:
          attempts: 4
          delay: 250
          exponential_backoff: true
          on: [5xx, 429, timeout, connect]
          except: [501]
          jitter: none
          max_delay: 2s
          respect_retry_after: true
        assert:
          tests:
            - value: a|Order::status|
              is_equal_to: 200
            - jq: .items | length
              is_greater_than: 0
          error_message: order not found
        post_transforms:
          - keep_attributes: [id, total, customer_id, items]
          - numerics: [total]
          - math:
              expressions: { total_eur: target.total * 0.92 }
              decimal_places: 2
      - name: Customer
        run_when_succeeded: [Order]
        run_on_assertion: { tests: [{ value: a|Order::status|, is_equal_to: 200 }] }
        url: https://api.example.com/customers/a|Order::body.customer_id|
        response_on_error: { http_code: 502, body: customer lookup failed }
      - name: Items
        lookup: a|Order->items|
        lookup_concurrency: 5
        lookup_partition: true
        item_timeout: 2s
        timeout: 30s
        actions:
          - name: Item
            http:
              url: https://api.example.com/items/a|body::sku|
          - name: Stock
            run_when_succeeded: { actions: [Item], at_least: 1 }
            input: a|Item|
      - name: Fallback
        run_when_failed: [Customer]
        hide_data_on_error: true
        emit_metric: { name: customer_lookup_failed_total, type: counter, value: 1, labels: { iface: order_summary } }
      - name: Summary
        depends_on: [Order, Customer]
        input: a|Order|
        output: http
        post_transforms:
          - add_attribute: { customer: "a|Customer->name->default(unknown)|", request_id: "a|uuid|" }
          - rename_keys: { total_eur: totalEur }
    response:
      http_code_on_error: 502
      http_code_inherit_error: [Order]
      headers: { Cache-Control: no-store }
      http_code_fallback: 500
      http_code_fallback_strategy: last_action_with_error
      logs: [{ on: error }]
  authorize:
    output: none
    assert:
      tests:
        - value: a|header::Authorization|
          is_not_empty: true
  alert:
    method: POST
    actions:
      - name: Notify
        http:
          url: https://hooks.example.com/alerts
          method: POST
          body:
            text: "a|body->config| a|body->interface| failed with a|body->http_code|"
`;

export const JOBS = `# Scheduled and integration work: state, databases, files, messaging, agents.
interfaces:
  sync_orders:
    schedule:
      cron: "*/5 * * * *"
      enabled: true
      max_attempts: 3
      retry_backoff_seconds: 30
      timezone: Europe/Paris
    output: none
    actions:
      - name: Cursor
        state: { get: { key: orders_cursor } }
      - name: Page
        http:
          url: https://api.example.com/orders?since=a|state::orders_cursor|
          pagination: { page_start: 1, page_limit: 100, page_limit_key: per_page, max_pages: 20, payload_key: data }
      - name: Fresh
        input: a|Page|
        only_new: { key: seen_orders, id: .order_id, ttl: 30d }
      - name: Save
        database: orders
        query: insert into orders select * from json_populate_recordset(null::orders, $1)
        params: ["a|Fresh|"]
        retry: { attempts: 3, delay: 1s }
      - name: Vacuum
        database: orders
        multi: true
        query: "vacuum orders; analyze orders;"
      - name: Advance
        state: { advance: { key: orders_cursor, value: "a|Page::body.next_cursor|" } }
      - name: Count
        state: { increment: { key: sync_runs, by: 1, ttl: 7d } }
      - name: Forget
        state: { delete: { key: stale_key } }
      - name: Store
        state: { set: { key: last_sync, value: a|uuid| } }
  nightly_export:
    output: cli
    actions:
      - name: Dump
        command: { run: "pg_dump orders | gzip > /tmp/orders.gz", shell: bash, env: { PGPASSWORD: "a|secret::PG|" }, cwd: /tmp }
        expect_exit: [0, 1]
        output_stdout: true
        pre_log: [{ msg: starting dump, level: info }]
        error_log: [{ msg: "dump failed", level: error, json: true }]
      - name: Upload
        sftp:
          host: sftp.example.com
          user: exporter
          private_key: a|secret::SFTP_KEY|
          host_key: SHA256:abc123
          operation: put
          path: /incoming/orders.gz
          content: a|Dump|
          encoding: base64
          timeout: 30s
      - name: Mail
        email:
          from: robot@example.com
          to: [ops@example.com]
          subject: Export done
          text: The export finished.
          attachments:
            - { filename: report.txt, content: aGVsbG8=, content_type: text/plain }
      - name: Signed
        google: { credential: gcs, get_signed_upload_url: { bucket: exports, key: orders.gz } }
      - name: S3
        aws: { credential: s3, get_signed_upload_url: { bucket: exports, key: orders.gz } }
  approve:
    method: POST
    actions:
      - name: Token
        input: a|body|
        post_transforms:
          - add_attribute: { token: a|uuid| }
      - name: Wait
        wait_for_callback: { token: "a|Token::token|", timeout: 7d }
      - name: Pause
        delay: 500ms
      - name: Peers
        discover:
          kubernetes: { namespace: shop, label_selector: app=api, ready_only: true }
          include: { name: "^api-" }
          port: 8080
          cache_ttl_secs: 0
      - name: Static
        discover: { static: "10.0.0.1:80, 10.0.0.2:80", port: "a|var::PORT|" }
      - name: Broadcast
        ws_publish: { channels: [orders], data: a|Wait|, retain: true }
      - name: Mqtt
        mqtt_publish: { topics: orders/approved, qos: 1, retain: false }
      - name: Doc
        document_operation: { database: docs, collection: approvals, operation: insertOne, insert: { by: a|body::user| } }
  assistant:
    method: POST
    ws: "on"
    public: true
    actions:
      - name: Agent
        agent:
          url: https://llm.example.com/v1/chat/completions
          model: small-1
          headers: { Authorization: Bearer a|secret::LLM| }
          system: You help with orders.
          input: a|body::question|
          tools: [approve]
          mcp: [{ url: https://mcp.example.com/rpc, only: [search] }]
          max_iterations: 6
          memory: { key: a|header::X-Session|, window: 20, ttl: 2h }
          temperature: 0.2
          timeout: 30
`;

export const TRANSFORMS = `# Every transform, one per list item.
interfaces:
  shapes:
    actions:
      - name: Data
        input: a|body|
        post_transforms:
          - rename_attributes: { a: b }
          - remove_attributes: [c]
          - keep_attributes: [b]
          - move_attributes: { b: d.e }
          - rename_keys: { d: f }
          - remove_keys: [g]
          - add_attribute: { id: a|uuid| }
          - return_row: 0
          - extract_value: data.items
          - extract_array: { from: items, paths: [id], flatten: true, dedupe: true }
          - extract_with_json_path: $.items[*].id
          - extract_with_jq: "[.[] | select(.a|.b)]"
          - extract_with_regex: { value: text, expr: "(\\\\d+)-(\\\\d+)", keys: [from, to] }
          - extract_with_css: { value: "", selector: a.link, key: links, attribute: href, all: true }
          - numerics: [total]
          - group_by: [country]
          - bcrypt: { key: hash, value: a|body::password|, cost: 10 }
          - generate_password: { key: pw, length: 16, symbols: true, exclude_similar_characters: true }
          - replace_values: { target_value: N/A, new_str: "", target_key: status }
          - flatten: { key_separator: _, prefix: x }
          - nested_transforms: { items: [{ remove_keys: [secret] }] }
          - math: { expressions: { t: target.a + target.b }, target: $.totals, eval_type: float, to_string: true }
          - aggregate: { over: $.items, key: summary, sum: [total], avg: [total], min: [total], max: [total], count: true, group_by: [country] }
          - filter: { target: items, conditions: { status: { is_one_of: [paid, shipped] }, total: { is_between: { min: 1, max: 100 } } } }
          - b64_decode: payload
          - b64_decode_as_json: payload
          - b64_encode: payload
          - yaml_to_json: { key: doc, json_path: $.yaml }
          - parse_csv: csv
          - to_csv: rows
          - encode_uri: url
          - encode_uri_component: q
          - decode_uri: url
          - decode_uri_component: q
          - generate_slug: title
          - generate_bytes: { key: salt, length: 16 }
          - encrypt_value: { key: enc, data: a|body|, secret_key: a|var::AES_KEY|, nonce: a|var::NONCE| }
          - decrypt_value: { key: dec, value: a|body::value|, nonce: a|body::nonce|, tag: a|body::tag|, secret_key: a|var::AES_KEY| }
          - hmac: { key: sig, data: a|raw_body|, secret: a|var::HMAC|, algorithm: sha512, encoding: base64 }
          - add_jwt: { key: jwt, secret: a|var::JWT|, data: [user_id, role], exp: 1h }
          - read_jwt: { key: claims, token: a|header::Authorization| }
          - compress: { value: "", key: packed, algorithm: zlib, encoding: base64url, level: 9 }
          - decompress: { value: packed, key: unpacked, algorithm: zlib, json: true }
          - totp: { secret: a|var::TOTP|, key: code, digits: 8, period: 60, algorithm: sha256 }
          - parse_xlsx: { value: a|body::file|, key: rows, sheet: Sheet1, headers: true, limit: 500 }
          - parse_pdf: { value: a|body::file|, key: text, encoding: base64url }
          - s3_generate_presigned_url:
              bucket: b
              file_key: k
              expiration_secs: 600
              endpoint: https://s3.example.com
              region: eu-west-1
              access_key_id: a|var::S3_ID|
              secret_access_key: a|var::S3_SECRET|
              key: url
              operation: put
        assert:
          tests:
            - value: count(a|Data|)
              is_greater_than_or_equal_to: 1
            - json_path: $.id
              is_not_null: true
              is_type: string
            - value: a|header::X-Signature|
              is_valid_hmac: { secret: a|var::HMAC|, data: a|raw_body|, algorithm: sha256, encoding: hex }
            - value: a|body::code|
              is_valid_totp: { secret: a|var::TOTP|, digits: 6 }
            - value: a|body::name|
              contains: "a"
              is_not_equal_to: "b"
          success_message: ok
`;

export const LEGACY = `# Deprecated fields and the bare input form still load.
interfaces:
  upload:
    method: POST
    request_example: { name: report }
    response_example: { ok: true }
    actions:
      - name: Read
        input: a|body
      - name: Send
        http:
          url: https://files.example.com/upload
          method: POST
          multipart_form:
            - { key: title, value: a|body::name|, mime_str: text/plain }
          multipart_files:
            - { file_path: /tmp/report.pdf, file_name: report.pdf, mime_str: application/pdf }
          multipart:
            - { name: note, value: hello }
            - { name: blob, b64: aGVsbG8=, filename: h.txt }
          proxy_headers: [X-Trace]
          data_type: ndjson
`;
