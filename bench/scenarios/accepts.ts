// POST an order → its body echoed, behind an `accepts.schema` of ten properties (types, required,
// bounds, a pattern on RE2, an email format, an array of objects). Its pair accepts-none.ts is the
// same interface without `accepts`: `npm run bench:cpu -- accepts --ways fast --also none=…` puts the
// validator's cost per request side by side (docs/decisions.md, "Request bodies: `accepts.schema`").
import type { Scenario } from '../scenario.ts';

export const ORDER = {
  id: 'ord-20261206-0042', customer: { email: 'ada@example.com', name: 'Ada Lovelace' }, currency: 'EUR', express: false,
  note: 'leave at the door', placed_at: '2026-12-06T21:00:00Z', coupon: null,
  items: [{ sku: 'A-100', qty: 2, price: 9.5 }, { sku: 'B-220', qty: 1, price: 120 }, { sku: 'C-003', qty: 12, price: 0.35 }],
};

export const SCHEMA = `
      schema:
        type: object
        required: [id, customer, currency, items]
        additionalProperties: false
        properties:
          id: { type: string, pattern: "^ord-[0-9]{8}-[0-9]{4}$" }
          customer:
            type: object
            required: [email]
            properties: { email: { type: string, format: email, maxLength: 254 }, name: { type: string, maxLength: 200 } }
          currency: { enum: [EUR, USD, GBP] }
          express: { type: boolean }
          note: { type: string, maxLength: 500 }
          placed_at: { type: string, format: date-time }
          coupon: { type: ["string", "null"] }
          items:
            type: array
            minItems: 1
            maxItems: 100
            items:
              type: object
              required: [sku, qty, price]
              properties: { sku: { type: string, minLength: 1 }, qty: { type: integer, minimum: 1 }, price: { type: number, minimum: 0 } }`;

export const acceptsConfig = (accepts: string) => `
interfaces:
  order:
    method: POST
    route: /order${accepts}
    actions:
      - name: Echo
        input: a|body|
        output: http
`;

export const scenario: Scenario = {
  name: 'accepts',
  summary: 'POST an order behind accepts.schema (10 properties) → the body echoed',
  config: acceptsConfig(`\n    accepts:${SCHEMA}`),
  request: { method: 'POST', path: '/order', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ORDER) },
  handWritten(app) {
    app.post('/order', async (req) => req.body);
  },
  targets: [],
};
