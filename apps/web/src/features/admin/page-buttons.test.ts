import { ADMIN_PAGE_BUTTONS } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { pageButtons } from './page-buttons';

describe('pageButtons', () => {
  it('shows every page when there are at most five', () => {
    expect(ADMIN_PAGE_BUTTONS).toBe(5);
    expect(pageButtons(1, 1)).toEqual([1]);
    expect(pageButtons(2, 3)).toEqual([1, 2, 3]);
    expect(pageButtons(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('centres a window of five on the current page', () => {
    expect(pageButtons(6, 20)).toEqual([4, 5, 6, 7, 8]);
    expect(pageButtons(10, 20)).toEqual([8, 9, 10, 11, 12]);
  });

  it('keeps the window full at either end', () => {
    expect(pageButtons(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(2, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(19, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageButtons(20, 20)).toEqual([16, 17, 18, 19, 20]);
  });

  it('never shows more than five, nor pages that do not exist', () => {
    for (let pages = 0; pages <= 30; pages++) {
      for (let page = 0; page <= pages + 1; page++) {
        const shown = pageButtons(page, pages);
        expect(shown.length).toBeLessThanOrEqual(5);
        expect(shown.every((n) => n >= 1 && n <= pages)).toBe(true);
      }
    }
    expect(pageButtons(1, 0)).toEqual([]);
    expect(pageButtons(50, 8)).toEqual([4, 5, 6, 7, 8]);
  });
});
