// The interpreter's validator of `accepts.schema`: ajv compiles it once, at load. (Generated
// modules carry ajv's standalone code instead, so a bundle without an interpreter leaves ajv out:
// compiler/bundle/slim.ts.)
import { Ajv, _ } from 'ajv';
import { bodyCheck, type BodyCheck } from './body-check.ts';
import { schemaAjv } from './schema-ajv.ts';

export const compileBodySchema = (schema: unknown): BodyCheck => bodyCheck(schemaAjv({ Ajv, _ }).compile(schema as boolean | object));
