// A round of Rota to pass the time while a Voice trains. The rules and the computer player live in
// rota-rules, rota-ai and rota-view; this component draws the board and wires clicks, keys and the timer.
import { Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { chooseMove } from './rota-ai';
import {
  applyMove,
  CENTER,
  COMPUTER,
  HUMAN,
  initialState,
  type Line,
  OUTER_POINTS,
  outcome,
  POINT_COUNT,
} from './rota-rules';
import { activatePoint, isActionable, pointLabel, type RotaView, statusText, targetsFrom } from './rota-view';

/** A pause before the computer answers, so its move reads as a reply rather than a flicker. */
const COMPUTER_DELAY_MS = 500;

const HUMAN_COLOR = 'var(--mantine-primary-color-filled)';
const COMPUTER_COLOR = 'var(--mantine-color-orange-filled)';
const WIN_COLOR = 'var(--mantine-color-green-filled)';
const LINE_COLOR = 'var(--mantine-color-gray-5)';
const FOCUS_COLOR = 'var(--mantine-color-blue-filled)';

const SIZE = 240;
const MID = SIZE / 2;
const RADIUS = 90;
const PIECE_RADIUS = 14;
/** Larger than a piece so the points are easy to hit on a phone. */
const HIT_RADIUS = 22;

/** Point 0 at the top, then clockwise, matching the rules' numbering. */
function position(point: number): { x: number; y: number } {
  if (point === CENTER) return { x: MID, y: MID };
  const angle = (point / OUTER_POINTS) * 2 * Math.PI - Math.PI / 2;
  return { x: MID + RADIUS * Math.cos(angle), y: MID + RADIUS * Math.sin(angle) };
}

/** A rim line follows the circle from its first to its last point; a diameter is straight. */
function winningPath(line: Line): string {
  const from = position(line[0]);
  const to = position(line[2]);
  if (line[1] === CENTER) return `M ${from.x} ${from.y} L ${to.x} ${to.y}`;
  return `M ${from.x} ${from.y} A ${RADIUS} ${RADIUS} 0 0 1 ${to.x} ${to.y}`;
}

/** Point lists to map over when drawing: the rim (for the spokes), and every point with the center last. */
const RIM_POINTS = Array.from({ length: OUTER_POINTS }, (_, point) => point);
const ALL_POINTS = Array.from({ length: POINT_COUNT }, (_, point) => point);

const newView = (): RotaView => ({ state: initialState(), selected: null });

/** `title` heads the card: the page that holds it says what the game is for. */
export function RotaGame({ title }: { title: string }) {
  const [view, setView] = useState<RotaView>(newView);
  const [focused, setFocused] = useState<number | null>(null);
  const { state, selected } = view;

  // The computer answers after a pause. Clearing the timer whenever the state changes (New game)
  // or the card unmounts means a move computed for an old position can never land.
  useEffect(() => {
    if (state.toMove !== COMPUTER || outcome(state) !== null) return;
    const timer = setTimeout(() => {
      const next = applyMove(state, chooseMove(state));
      // Searched outside the updater, which React may run twice; applied only to the position it was searched for.
      setView((current) => (current.state === state ? { state: next, selected: null } : current));
    }, COMPUTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const result = outcome(state);
  const winningLine = result?.kind === 'win' ? result.line : null;
  const targets = targetsFrom(state, selected);

  const activate = (point: number) => setView((current) => activatePoint(current, point));
  const onKeyDown = (point: number) => (event: KeyboardEvent<SVGGElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    // Space would otherwise scroll the page.
    event.preventDefault();
    activate(point);
  };

  return (
    <Card>
      <Stack gap="md">
        <div>
          <Title order={3}>{title}</Title>
          <Text c="dimmed" fz="sm" mt={4}>
            Place your three pieces, then slide one at a time along a line to an empty point; three in a row around the
            wheel or straight through the center wins.
          </Text>
        </div>

        <Group gap="lg" fz="sm">
          <Legend color={HUMAN_COLOR} label="You" />
          <Legend color={COMPUTER_COLOR} label="Computer" />
        </Group>

        <Box w="100%" maw={320} mx="auto">
          <svg viewBox={`0 0 ${SIZE} ${SIZE}`} width="100%" style={{ display: 'block' }}>
            <title>Rota board</title>
            <circle cx={MID} cy={MID} r={RADIUS} fill="none" stroke={LINE_COLOR} strokeWidth={2} />
            {RIM_POINTS.map((point) => {
              const { x, y } = position(point);
              return <line key={point} x1={MID} y1={MID} x2={x} y2={y} stroke={LINE_COLOR} strokeWidth={2} />;
            })}
            {winningLine && (
              <path
                d={winningPath(winningLine)}
                fill="none"
                stroke={WIN_COLOR}
                strokeWidth={8}
                strokeLinecap="round"
                opacity={0.5}
              />
            )}
            {ALL_POINTS.map((point) => {
              const { x, y } = position(point);
              const cell = state.board[point];
              const isTarget = targets.includes(point);
              const actionable = isActionable(view, point);
              return (
                // biome-ignore lint/a11y/useSemanticElements: SVG has no <button>; role, tabIndex and keys make this one.
                <g
                  key={point}
                  role="button"
                  tabIndex={0}
                  aria-label={pointLabel(view, point)}
                  aria-disabled={!actionable}
                  onClick={() => activate(point)}
                  onKeyDown={onKeyDown(point)}
                  onFocus={(event) => setFocused(event.currentTarget.matches(':focus-visible') ? point : null)}
                  onBlur={() => setFocused(null)}
                  style={{ cursor: actionable ? 'pointer' : 'default', outline: 'none' }}
                >
                  <circle cx={x} cy={y} r={HIT_RADIUS} fill="transparent" />
                  {isTarget && <circle cx={x} cy={y} r={PIECE_RADIUS} fill={HUMAN_COLOR} opacity={0.25} />}
                  {cell === null && <circle cx={x} cy={y} r={5} fill={LINE_COLOR} />}
                  {cell !== null && (
                    <circle cx={x} cy={y} r={PIECE_RADIUS} fill={cell === HUMAN ? HUMAN_COLOR : COMPUTER_COLOR} />
                  )}
                  {winningLine?.includes(point) && (
                    <circle cx={x} cy={y} r={PIECE_RADIUS + 4} fill="none" stroke={WIN_COLOR} strokeWidth={3} />
                  )}
                  {selected === point && (
                    <circle
                      cx={x}
                      cy={y}
                      r={PIECE_RADIUS + 4}
                      fill="none"
                      stroke={HUMAN_COLOR}
                      strokeWidth={3}
                      strokeDasharray="4 3"
                    />
                  )}
                  {focused === point && (
                    <circle cx={x} cy={y} r={HIT_RADIUS - 1} fill="none" stroke={FOCUS_COLOR} strokeWidth={2} />
                  )}
                </g>
              );
            })}
          </svg>
        </Box>

        <Group justify="space-between" gap="sm">
          <Text fw={600} role="status" aria-live="polite">
            {statusText(view)}
          </Text>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconRefresh size={16} />}
            onClick={() => setView(newView())}
          >
            New game
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={6}>
      <Box w={12} h={12} style={{ borderRadius: '50%', background: color }} aria-hidden="true" />
      <Text span fz="sm">
        {label}
      </Text>
    </Group>
  );
}
