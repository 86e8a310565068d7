// move_attributes: { "from.path": "to.path" } per record (each object element of an array).
// Moves run in the listed order, each on the result of the previous one. An absent source is a
// no-op (the destination is not created); missing or null intermediates become objects; an
// existing destination is overwritten; a non-object in the way fails (as jq does).
import type { TransformRun } from './types.ts';
import { stringPairs } from './util/args.ts';
import { eachRecord } from './util/each.ts';
import { deletePath, lookup, MISSING, setPath, splitPath } from './util/path.ts';

export const run: TransformRun = (data, args) => {
  const W = 'move_attributes';
  const moves = stringPairs(args, W).map(([from, to]) => [splitPath(from, W), splitPath(to, W)]);
  return eachRecord(data, W, (rec) =>
    moves.reduce<unknown>((r, [from, to]) => {
      const v = lookup(r, from);
      return v === MISSING ? r : setPath(deletePath(r, from), to, v, W);
    }, rec),
  );
};
