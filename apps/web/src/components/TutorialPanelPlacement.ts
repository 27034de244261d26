// Where a tutorial panel sits: the centre when it points at nothing, else the corner of the
// viewport that covers least of the control it points at, the farthest from it among equals; and
// never over a field the person is filling in (placeBesideField).

export const TUTORIAL_POSITIONS = ['center', 'top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type TutorialPosition = (typeof TUTORIAL_POSITIONS)[number];
type Corner = Exclude<TutorialPosition, 'center'>;
const CORNERS: readonly Corner[] = ['bottom-right', 'bottom-left', 'top-right', 'top-left'];

export interface Size {
  width: number;
  height: number;
}
export interface Box extends Size {
  left: number;
  top: number;
}

/** The gap between a panel and the viewport's edges, in CSS pixels. */
export const PANEL_MARGIN = 16;
/**
 * How far a top corner sits from the viewport's top: below the beta banner and the site header,
 * so a panel never hides the navigation or Logout.
 */
export const PANEL_TOP_CLEARANCE = 120;

/** The box a panel of `panel` size takes at `position` in `viewport`. */
export function panelBox(position: TutorialPosition, panel: Size, viewport: Size): Box {
  const { width, height } = panel;
  if (position === 'center') {
    return { left: (viewport.width - width) / 2, top: (viewport.height - height) / 2, width, height };
  }
  const left = position.endsWith('left') ? PANEL_MARGIN : viewport.width - PANEL_MARGIN - width;
  const top = position.startsWith('top') ? PANEL_TOP_CLEARANCE : viewport.height - PANEL_MARGIN - height;
  return { left, top, width, height };
}

const overlapArea = (a: Box, b: Box): number => {
  const width = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const height = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return width > 0 && height > 0 ? width * height : 0;
};

const centreDistance = (a: Box, b: Box): number =>
  Math.hypot(a.left + a.width / 2 - (b.left + b.width / 2), a.top + a.height / 2 - (b.top + b.height / 2));

/** The position for a panel pointing at `target` (viewport coordinates), or at nothing. */
export function placeTutorialPanel(target: Box | null, panel: Size, viewport: Size): TutorialPosition {
  if (target === null) return 'center';
  let best: Corner = 'bottom-right';
  let bestOverlap = Number.POSITIVE_INFINITY;
  let bestDistance = Number.NEGATIVE_INFINITY;
  for (const corner of CORNERS) {
    const box = panelBox(corner, panel, viewport);
    const overlap = overlapArea(box, target);
    const distance = centreDistance(box, target);
    if (overlap < bestOverlap || (overlap === bestOverlap && distance > bestDistance)) {
      best = corner;
      bestOverlap = overlap;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The position when a field is being filled in too: the field is never covered. The usual place
 * when it leaves the field free; else, of the places that do, the one covering least of the
 * target (the farthest from it among equals, the centre first when there is none); else null:
 * no place leaves the field free, so the panel steps out of sight until the field is left.
 */
export function placeBesideField(
  target: Box | null,
  field: Box | null,
  panel: Size,
  viewport: Size,
): TutorialPosition | null {
  const usual = placeTutorialPanel(target, panel, viewport);
  if (field === null || overlapArea(panelBox(usual, panel, viewport), field) === 0) return usual;
  const places: readonly TutorialPosition[] = target === null ? ['center', ...CORNERS] : CORNERS;
  let best: TutorialPosition | null = null;
  let bestOverlap = Number.POSITIVE_INFINITY;
  let bestDistance = Number.NEGATIVE_INFINITY;
  for (const place of places) {
    const box = panelBox(place, panel, viewport);
    if (overlapArea(box, field) > 0) continue;
    const overlap = target ? overlapArea(box, target) : 0;
    const distance = target ? centreDistance(box, target) : 0;
    if (overlap < bestOverlap || (overlap === bestOverlap && distance > bestDistance)) {
      best = place;
      bestOverlap = overlap;
      bestDistance = distance;
    }
  }
  return best;
}
