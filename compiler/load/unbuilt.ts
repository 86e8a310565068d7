// The ONE table of config fields the schema accepts but this build does not implement. Until a field
// is built, `check`, `serve` and `compile` refuse a config that sets it, at the field's position
// (./lint-unbuilt.ts), so nothing in a config is silently ignored. Building a field: implement it,
// delete its line here, and make sure test/schema/field-readers.ts lists the code that reads it.
// Unbuilt action kinds are refused by lowering instead (the runtime's list of built kinds,
// runtime/actions/kinds.ts). test/schema/fields.test.ts fails when a schema field is neither read by
// the code nor listed here.

/** The schema definitions whose instances lint-unbuilt finds in a config. */
export type UnbuiltOwner = 'Config' | 'Interface' | 'InterfaceResponse' | 'Action';

export interface Unbuilt {
  /** The schema definition that declares the field (`Config` is the top level). */
  owner: UnbuiltOwner;
  field: string;
  /** What the field would do, for the refusal's hint. */
  feature: string;
}

export const UNBUILT: readonly Unbuilt[] = [];
