// The onboarding tutorial panel: a floating card with a title, a body, "Step n of m", Back,
// Next (Finish on the last step) and Close. It points at a control (a CSS selector per step),
// outlines it and sits in the corner that leaves it free (TutorialPanelPlacement); without one
// it sits in the centre. It never covers a field being filled in, and steps out of sight while a
// dialog is open or when no place leaves that field free (TutorialPanelObstacles). Focus moves
// into it when it opens (unless the person is busy in a field or a dialog), Esc closes it.
import { ActionIcon, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconSchool, IconX } from '@tabler/icons-react';
import {
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { fieldBeingFilled, modalDialogOpen } from './TutorialPanelObstacles';
import {
  type Box,
  PANEL_MARGIN,
  PANEL_TOP_CLEARANCE,
  placeBesideField,
  type TutorialPosition,
} from './TutorialPanelPlacement';

export interface TutorialStep {
  title: string;
  body: ReactNode;
  /** A CSS selector of the control this step is about; none centres the panel. */
  target?: string;
}

export interface TutorialPanelProps {
  /** Names the panel for assistive technology, e.g. "Dashboard tour". */
  label: string;
  steps: readonly TutorialStep[];
  /** The step it opens at (0-based). */
  startAt?: number;
  /** Closing without finishing: the close button or Esc. */
  onClose: () => void;
  /** Finish on the last step; closing is assumed when absent. */
  onFinish?: () => void;
  /** Extra buttons beside Back and Next. */
  actions?: ReactNode;
  testId: string;
}

const PANEL_WIDTH = 380;
// Re-measured this often too, for targets that appear or move without a scroll or resize.
const REMEASURE_MS = 800;

const POSITION_STYLES: Record<TutorialPosition, CSSProperties> = {
  center: { top: '50%', left: '50%', transform: 'translate(-50%, -50%)' },
  'top-left': { top: PANEL_TOP_CLEARANCE, left: PANEL_MARGIN },
  'top-right': { top: PANEL_TOP_CLEARANCE, right: PANEL_MARGIN },
  'bottom-left': { bottom: PANEL_MARGIN, left: PANEL_MARGIN },
  'bottom-right': { bottom: PANEL_MARGIN, right: PANEL_MARGIN },
};

const findTarget = (selector: string | undefined): HTMLElement | null =>
  selector ? document.querySelector<HTMLElement>(selector) : null;

/** Outlines the step's target while the step shows, and brings it into view when it is out of view. */
function useTargetOutline(selector: string | undefined) {
  useEffect(() => {
    const element = findTarget(selector);
    if (!element) return;
    const { outline, outlineOffset } = element.style;
    element.style.outline = '3px solid var(--mantine-color-violet-5)';
    element.style.outlineOffset = '3px';
    // Scrolled to only when wholly out of view: a large target in part on screen stays put.
    const { top, bottom } = element.getBoundingClientRect();
    if (bottom < 0 || top > window.innerHeight) element.scrollIntoView({ block: 'center' });
    return () => {
      element.style.outline = outline;
      element.style.outlineOffset = outlineOffset;
    };
  }, [selector]);
}

const boxOf = (element: Element | null): Box | null => {
  if (!element) return null;
  const { left, top, width, height } = element.getBoundingClientRect();
  return { left, top, width, height };
};

interface Placement {
  position: TutorialPosition;
  /** Out of sight: a dialog is open, or no place leaves the field being filled free. */
  hidden: boolean;
}

/** Where the panel goes, kept up to date as the page moves, the focus moves and dialogs open. */
function usePlacement(selector: string | undefined, panelRef: RefObject<HTMLDivElement | null>): Placement {
  const [placement, setPlacement] = useState<Placement>({
    position: selector ? 'bottom-right' : 'center',
    hidden: false,
  });
  const measure = useCallback(() => {
    const panel = panelRef.current;
    const viewport = { width: window.innerWidth, height: window.innerHeight };
    const size = { width: panel?.offsetWidth ?? PANEL_WIDTH, height: panel?.offsetHeight ?? 240 };
    const field = boxOf(fieldBeingFilled(panel));
    const position = modalDialogOpen() ? null : placeBesideField(boxOf(findTarget(selector)), field, size, viewport);
    // Hidden, it keeps its last place, so it comes back where it was.
    setPlacement((current) => {
      const next = position === null ? { position: current.position, hidden: true } : { position, hidden: false };
      return next.position === current.position && next.hidden === current.hidden ? current : next;
    });
  }, [selector, panelRef]);

  useLayoutEffect(() => {
    measure();
    let frame = 0;
    const onChange = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    };
    window.addEventListener('resize', onChange);
    window.addEventListener('scroll', onChange, true);
    // The focus entering or leaving a field, or a dialog taking it.
    document.addEventListener('focusin', onChange);
    document.addEventListener('focusout', onChange);
    const timer = setInterval(measure, REMEASURE_MS);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', onChange);
      window.removeEventListener('scroll', onChange, true);
      document.removeEventListener('focusin', onChange);
      document.removeEventListener('focusout', onChange);
      clearInterval(timer);
    };
  }, [measure]);
  return placement;
}

export function TutorialPanel({ label, steps, startAt = 0, onClose, onFinish, actions, testId }: TutorialPanelProps) {
  const last = steps.length - 1;
  const [index, setIndex] = useState(() => Math.min(Math.max(startAt, 0), last));
  const step = steps[index];
  const panelRef = useRef<HTMLDivElement>(null);
  const primaryRef = useRef<HTMLButtonElement>(null);
  const bodyId = useId();

  useTargetOutline(step?.target);
  const { position, hidden } = usePlacement(step?.target, panelRef);

  // Focus moves into the panel when it opens, but never out of a field being filled in or a
  // dialog; when a step change disabled the focused button (Back on the first step), it goes to
  // the main button.
  useEffect(() => {
    if (fieldBeingFilled(panelRef.current) === null && !modalDialogOpen()) panelRef.current?.focus();
  }, []);
  useEffect(() => {
    // A disabled button drops the focus to the page's body; focus elsewhere is the person's own.
    const dropped = document.activeElement === null || document.activeElement === document.body;
    if (index >= 0 && dropped) primaryRef.current?.focus();
  }, [index]);

  if (!step) return null;
  const isLast = index === last;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };

  return (
    <Paper
      ref={panelRef}
      role="dialog"
      aria-modal={false}
      aria-label={label}
      aria-describedby={bodyId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      shadow="xl"
      radius="md"
      p="md"
      withBorder
      data-testid={testId}
      data-position={position}
      data-hidden={hidden || undefined}
      data-step={index + 1}
      style={{
        position: 'fixed',
        zIndex: 190,
        width: `min(${PANEL_WIDTH}px, calc(100vw - ${2 * PANEL_MARGIN}px))`,
        maxHeight: `calc(100vh - ${PANEL_TOP_CLEARANCE + PANEL_MARGIN}px)`,
        overflowY: 'auto',
        borderColor: 'var(--mantine-color-violet-4)',
        borderWidth: 2,
        outline: 'none',
        visibility: hidden ? 'hidden' : undefined,
        ...POSITION_STYLES[position],
      }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap={8} wrap="nowrap" c="violet.7">
            <IconSchool size={20} aria-hidden="true" />
            <Text fz="xs" fw={700} tt="uppercase" aria-live="polite" data-testid={`${testId}-counter`}>
              Step {index + 1} of {steps.length}
            </Text>
          </Group>
          <ActionIcon variant="subtle" color="gray" onClick={onClose} aria-label={`Close ${label.toLowerCase()}`}>
            <IconX size={18} />
          </ActionIcon>
        </Group>
        <Title order={2} fz="lg">
          {step.title}
        </Title>
        <div id={bodyId}>{typeof step.body === 'string' ? <Text fz="sm">{step.body}</Text> : step.body}</div>
        <Group justify="space-between" gap="xs" mt={4}>
          <Group gap="xs">{actions}</Group>
          <Group gap="xs">
            {steps.length > 1 && (
              <Button size="xs" variant="default" disabled={index === 0} onClick={() => setIndex((i) => i - 1)}>
                Back
              </Button>
            )}
            <Button
              ref={primaryRef}
              size="xs"
              onClick={() => (isLast ? (onFinish ?? onClose)() : setIndex((i) => i + 1))}
              data-testid={`${testId}-${isLast ? 'finish' : 'next'}`}
            >
              {isLast ? 'Finish' : 'Next'}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
