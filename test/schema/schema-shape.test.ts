// Invariants of config.schema.json that the loader and the type generator rely on.
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { configSchema, configValidator, type SchemaNode } from '../../compiler/schema/ajv.ts';

// Objects whose fields the spec leaves open.
const LOOSE = new Set<string>();
const ANNOTATIONS = new Set(['title', 'description', 'default', 'deprecated', 'x-message']);

function* nodes(n: unknown, path = '#'): Generator<[string, SchemaNode]> {
  if (typeof n !== 'object' || n === null) return;
  if (!Array.isArray(n)) yield [path, n as SchemaNode];
  for (const [k, v] of Object.entries(n)) {
    if (k === 'enum' || k === 'const' || k === 'default' || k === 'required') continue;
    yield* nodes(v, `${path}/${k}`);
  }
}

describe('config.schema.json', () => {
  it('is valid draft-07 and compiles under ajv strict mode', () => {
    const meta = new Ajv({ strict: false });
    expect(meta.validateSchema({ ...configSchema, definitions: {} }), JSON.stringify(meta.errors)).toBe(true);
    expect(() => configValidator()).not.toThrow();
  });

  it('every definition has a title (type names) and every property a description', () => {
    const missing: string[] = [];
    for (const [name, def] of Object.entries(configSchema.definitions as Record<string, SchemaNode>)) if (!def.title) missing.push(name);
    for (const [path, node] of nodes(configSchema)) {
      if (/\/(if|then)\b/.test(path)) continue;
      for (const [key, prop] of Object.entries((node.properties ?? {}) as Record<string, SchemaNode>)) {
        if (!prop.description) missing.push(`${path}/properties/${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('objects with listed fields reject unknown ones', () => {
    const open: string[] = [];
    for (const [path, node] of nodes(configSchema)) {
      if (!node.properties || /\/(if|then)\b/.test(path)) continue;
      if (LOOSE.has(node.title)) expect(node.additionalProperties, path).toBe(true);
      else if (node.additionalProperties !== false) open.push(path);
    }
    expect(open).toEqual([]);
  });

  it('unions are pure: nothing but the anyOf (and annotations) at a union node', () => {
    // unions.ts drops every error at or under a failed union and re-validates one branch.
    const mixed: string[] = [];
    for (const [path, node] of nodes(configSchema)) {
      if (!node.anyOf && !node.oneOf) continue;
      const extra = Object.keys(node).filter((k) => k !== 'anyOf' && !ANNOTATIONS.has(k));
      if (extra.length || node.oneOf) mixed.push(`${path}: ${extra.join(', ')}`);
    }
    expect(mixed).toEqual([]);
  });

  it('lists every action kind and transform of the spec', () => {
    const action = Object.keys(configSchema.definitions.Action.properties);
    for (const kind of ['http', 'database', 'command', 'email', 'sftp', 'aws', 'google', 'state', 'discover', 'document_operation', 'agent', 'lookup', 'delay', 'wait_for_callback', 'only_new', 'emit_metric', 'ws_publish', 'mqtt_publish']) {
      expect(action).toContain(kind);
    }
    const transforms = `rename_attributes remove_attributes keep_attributes move_attributes rename_keys remove_keys add_attribute
      return_row extract_value extract_array extract_with_json_path extract_with_jq extract_with_regex extract_with_css numerics
      group_by bcrypt generate_password replace_values flatten nested_transforms math aggregate filter b64_decode b64_decode_as_json
      b64_encode yaml_to_json parse_csv to_csv encode_uri encode_uri_component decode_uri decode_uri_component generate_slug
      generate_bytes encrypt_value decrypt_value hmac add_jwt read_jwt compress decompress totp parse_xlsx parse_pdf
      s3_generate_presigned_url`.split(/\s+/);
    expect(Object.keys(configSchema.definitions.Transform.properties).sort()).toEqual(transforms.sort());
  });
});
