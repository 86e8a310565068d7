// "Did you mean" suggestions: the closest candidate by Damerau-Levenshtein distance.

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate closest to `word`, or undefined when none is close enough to be a likely typo
 * (a third of the longer word, at least 1). Case differences are free: `Retry` suggests `retry`.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDist = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    if (c === word) continue;
    const dist = editDistance(w, c.toLowerCase());
    const limit = Math.max(1, Math.floor(Math.max(w.length, c.length) / 3));
    if (dist <= limit && dist < bestDist) {
      best = c;
      bestDist = dist;
    }
  }
  return best;
}

export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const c = closest(word, candidates);
  return c === undefined ? undefined : `did you mean "${c}"?`;
}
