// How jq outputs become one value: one output as is, several as an array, none as null.
export function jqValue(outputs: unknown[]): unknown {
  if (outputs.length === 1) return outputs[0];
  return outputs.length === 0 ? null : outputs;
}
