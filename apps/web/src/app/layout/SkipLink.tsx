// The first thing Tab reaches on every page: a link past the banner and the navigation to the
// page's own content. Out of sight until it has the focus; following it moves the focus to <main>
// (not only the scroll position), so the next Tab goes on from the top of the page's content.
import { Button } from '@mantine/core';
import { type MouseEvent, useState } from 'react';

/** The id of the layout's <main>, which must take focus from script (tabIndex -1). */
export const MAIN_ID = 'main';

function focusMain(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  // The router owns the address: no #main added to it.
  event.preventDefault();
  main.focus();
}

export function SkipLink() {
  const [shown, setShown] = useState(false);
  return (
    <Button
      component="a"
      href={`#${MAIN_ID}`}
      // White on the violet beta banner it appears over.
      variant="white"
      onClick={focusMain}
      onFocus={() => setShown(true)}
      onBlur={() => setShown(false)}
      style={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: 1000,
        boxShadow: 'var(--mantine-shadow-md)',
        // Moved above the window rather than hidden, so screen readers still find it first.
        transform: shown ? 'none' : 'translateY(calc(-100% - 16px))',
        // And invisible there: a full-page picture or a zoomed view never catches it half in sight.
        opacity: shown ? 1 : 0,
      }}
    >
      Skip to main content
    </Button>
  );
}
