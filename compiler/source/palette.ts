// Colour functions that are identity when colour is off, so formatting code never branches on it.
import pc from 'picocolors';

export type Palette = Pick<ReturnType<typeof pc.createColors>, 'red' | 'yellow' | 'cyan' | 'dim' | 'bold'>;

export function palette(color: boolean): Palette {
  return pc.createColors(color);
}
