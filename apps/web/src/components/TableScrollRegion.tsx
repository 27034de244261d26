// A table wider than a small screen scrolls sideways in a box of its own. While it does, that box
// is a named region the keyboard can focus and then scroll with the arrow keys (axe:
// scrollable-region-focusable), so a table of plain text can still be read to its last column
// without a mouse; while it fits, the box is no Tab stop (nothing to scroll, one press less). The
// browser's own scrolling, not a drawn scrollbar that shows only on hover: a phone shows there is
// more to see.
import { Table } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';

export interface TableScrollRegionProps {
  /** What the table holds, as a screen reader announces the region ("Users", "Activity"). */
  label: string;
  /** Below this width the table scrolls instead of squeezing its columns. */
  minWidth: number;
  children: ReactNode;
}

/** Whether the box's content is wider than the box, followed as either resizes. */
function useScrollsSideways(box: HTMLElement | null): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    if (!box) return;
    const measure = () => setScrolls(box.scrollWidth > box.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, [box]);
  return scrolls;
}

export function TableScrollRegion({ label, minWidth, children }: TableScrollRegionProps) {
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const scrolls = useScrollsSideways(box);
  return (
    <Table.ScrollContainer
      ref={setBox}
      type="native"
      minWidth={minWidth}
      role="region"
      aria-label={label}
      tabIndex={scrolls ? 0 : undefined}
      className="mantine-focus-auto"
    >
      {children}
    </Table.ScrollContainer>
  );
}
