// Managed/hosted mode (SERVICE__MANAGED_MODE=1 or true): no reading of the service's own disk, no
// commands, tighter bounds (spec: Limits).
export function managedMode(value: string | undefined): boolean {
  return /^(1|true)$/i.test(value ?? '');
}
