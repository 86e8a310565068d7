/** Whether dist/ is at least as new as the sources under runtime/, compiler/ and cli/ (`root` ends in "/"). */
export function distIsCurrent(root: string): boolean;
