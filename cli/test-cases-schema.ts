// The JSON Schema of `*.tests.yaml` (docs/test-cases.md). Unknown fields are refused
// everywhere: a misspelt `expect` key would otherwise make a case that checks nothing.
import { MAX_TICKS, REFUSAL_STATUSES, TRANSPORT_CLASSES } from '../runtime/testing/index.ts';

const scalar = { type: ['string', 'number', 'boolean'] };
const strings = { type: 'object', additionalProperties: { type: 'string' } };
const scalars = { type: 'object', additionalProperties: scalar };
const standIn = {
  type: 'object', additionalProperties: false,
  properties: {
    data: {}, error: { type: 'string', minLength: 1 }, transport: { enum: [...TRANSPORT_CLASSES] }, refused: { enum: [...REFUSAL_STATUSES] },
    status: { type: 'integer', minimum: 100, maximum: 599 }, headers: strings,
  },
};

/** What a run's answer and its publishes must be: a case's `expect`, or one tick's. */
const expect = {
  type: 'object', additionalProperties: false,
  properties: {
    status: { type: 'integer', minimum: 100, maximum: 599 },
    headers: strings,
    body: {},
    body_includes: {},
    body_schema: { type: ['object', 'boolean'] },
    jq: { type: 'string', minLength: 1 },
    jsonpath: { type: 'string', pattern: '^\\$' },
    published: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false,
        properties: {
          mqtt: { type: 'string' }, ws: { type: 'string' }, email: { type: 'object' }, metric: { type: 'string' },
          message: {}, value: { type: 'number' }, labels: strings,
        },
      },
    },
  },
};

export const CASES_SCHEMA = {
  type: 'object', additionalProperties: false, required: ['cases'],
  properties: {
    vars: scalars, secrets: scalars, env: scalars,
    cases: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false, required: ['name', 'interface'],
        properties: {
          name: { type: 'string', minLength: 1 },
          interface: { type: 'string', minLength: 1 },
          request: {
            type: 'object', additionalProperties: false,
            properties: { method: { type: 'string', pattern: '^[A-Za-z]+$' }, params: scalars, query: scalars, headers: strings, body: {}, raw_body: { type: 'string' } },
          },
          schedule: {
            type: 'object', additionalProperties: false, required: ['ticks'],
            properties: {
              from: { type: 'string', minLength: 1 },
              // A count, or one entry per tick: the number keywords bind only a number, the array
              // ones only a list, so an error inside an entry keeps its own place (no anyOf).
              ticks: {
                type: ['integer', 'array'], minimum: 1, maximum: MAX_TICKS, minItems: 1, maxItems: MAX_TICKS,
                items: { type: 'object', additionalProperties: false, properties: { expect } },
              },
            },
          },
          http: {
            type: 'array',
            items: {
              type: 'object', additionalProperties: false, required: ['request', 'response'],
              properties: {
                request: {
                  type: 'object', additionalProperties: false, required: ['url'],
                  properties: { method: { type: 'string', pattern: '^[A-Za-z]+$' }, url: { type: 'string', pattern: '^https?://' }, body: {}, headers: strings },
                },
                response: {
                  type: 'object', additionalProperties: false,
                  properties: { status: { type: 'integer', minimum: 100, maximum: 599 }, headers: strings, body: {} },
                },
                times: { type: 'integer', minimum: 1 },
              },
            },
          },
          actions: { type: 'object', additionalProperties: { anyOf: [standIn, { type: 'array', minItems: 1, items: standIn }] } },
          callbacks: {
            type: 'array',
            items: {
              type: 'object', additionalProperties: false, required: ['action'],
              properties: { action: { type: 'string' }, body: {}, timeout: { const: true } },
            },
          },
          expect,
        },
      },
    },
  },
} as const;
