import { describe, expect, it } from 'vitest';
import { type Box, PANEL_MARGIN, panelBox, placeBesideField, placeTutorialPanel } from './TutorialPanelPlacement';

const viewport = { width: 1280, height: 720 };
const panel = { width: 360, height: 220 };
const overlaps = (a: Box, b: Box) =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe('placeTutorialPanel', () => {
  it('centres a panel that points at nothing', () => {
    expect(placeTutorialPanel(null, panel, viewport)).toBe('center');
    expect(panelBox('center', panel, viewport)).toEqual({ left: 460, top: 250, width: 360, height: 220 });
  });

  it('takes the corner diagonally away from a small target', () => {
    const at = (left: number, top: number) => ({ left, top, width: 120, height: 40 });
    expect(placeTutorialPanel(at(20, 20), panel, viewport)).toBe('bottom-right');
    expect(placeTutorialPanel(at(1100, 20), panel, viewport)).toBe('bottom-left');
    expect(placeTutorialPanel(at(20, 650), panel, viewport)).toBe('top-right');
    expect(placeTutorialPanel(at(1100, 650), panel, viewport)).toBe('top-left');
  });

  it('never covers a target when some corner leaves it free', () => {
    // A wide card along the bottom and a tall editor on the left.
    const targets: Box[] = [
      { left: 0, top: 480, width: 1280, height: 120 },
      { left: 24, top: 100, width: 600, height: 600 },
      { left: 900, top: 300, width: 300, height: 200 },
    ];
    for (const target of targets) {
      const box = panelBox(placeTutorialPanel(target, panel, viewport), panel, viewport);
      expect(overlaps(box, target), JSON.stringify(target)).toBe(false);
    }
  });

  it('covers as little as it can of a target too big to avoid', () => {
    const target = { left: 0, top: 0, width: 1000, height: 720 };
    const position = placeTutorialPanel(target, panel, viewport);
    expect(position.endsWith('right')).toBe(true);
    expect(panelBox(position, panel, viewport).left).toBe(viewport.width - PANEL_MARGIN - panel.width);
  });
});

describe('placeBesideField', () => {
  const target = { left: 20, top: 20, width: 120, height: 40 };

  it('keeps the usual place when it leaves the field free', () => {
    const field = { left: 20, top: 300, width: 300, height: 40 };
    expect(placeBesideField(target, field, panel, viewport)).toBe(placeTutorialPanel(target, panel, viewport));
  });

  it('moves off a field being filled, even when that covers more of the target', () => {
    // The field sits where the panel would go, in the bottom right.
    const field = { left: 800, top: 500, width: 460, height: 200 };
    const position = placeBesideField(target, field, panel, viewport);
    expect(position).not.toBeNull();
    expect(overlaps(panelBox(position ?? 'center', panel, viewport), field)).toBe(false);
  });

  it('leaves the centre for a corner when a panel about nothing would cover the field', () => {
    const field = { left: 300, top: 300, width: 600, height: 120 };
    const position = placeBesideField(null, field, panel, viewport);
    expect(position).not.toBe('center');
    expect(overlaps(panelBox(position ?? 'center', panel, viewport), field)).toBe(false);
  });

  it('steps out of sight when no place leaves the field free', () => {
    const field = { left: 0, top: 100, width: 1280, height: 600 };
    expect(placeBesideField(null, field, panel, viewport)).toBeNull();
    expect(placeBesideField(target, field, panel, viewport)).toBeNull();
  });
});
