/** Remembering the window's place: restore only what still fits on a connected display. */

import type { Rectangle } from './electron-types';
import type { WindowBounds } from '../shared/settings';

/** Pixels of the title bar that must stay on a display for the window to count as visible. */
const VISIBLE_MARGIN = 48;

function overlaps(a: Rectangle, b: Rectangle, margin: number): boolean {
  return (
    a.x + margin <= b.x + b.width &&
    b.x + margin <= a.x + a.width &&
    a.y >= b.y - margin &&
    a.y + margin <= b.y + b.height
  );
}

/**
 * The saved bounds when their top edge is on one of the displays' work areas (a monitor may
 * have been unplugged since), shrunk to that display; else undefined (centre a default size).
 */
export function restoreBounds(
  saved: WindowBounds | null | undefined,
  workAreas: readonly Rectangle[],
): WindowBounds | undefined {
  if (!saved) return undefined;
  const area = workAreas.find((a) => overlaps(saved, a, VISIBLE_MARGIN));
  if (!area) return undefined;
  return {
    ...saved,
    width: Math.min(saved.width, area.width),
    height: Math.min(saved.height, area.height),
  };
}
