// What the Rota board shows and how a click or key press on a point changes the game. Kept out of
// the component so it can be tested without a DOM; RotaGame only draws and wires events.
import {
  ADJACENT,
  applyMove,
  CENTER,
  COMPUTER,
  DRAW_AFTER_MOVES,
  HUMAN,
  outcome,
  phase,
  piecesLeftToPlace,
  type RotaState,
} from './rota-rules';

/** The human's view of the game: the position plus the piece they have picked up, if any. */
export interface RotaView {
  state: RotaState;
  selected: number | null;
}

export function isHumanTurn(state: RotaState): boolean {
  return state.toMove === HUMAN && outcome(state) === null;
}

/** Empty points the piece on `from` can move to; none outside the human's moving turn. */
export function targetsFrom(state: RotaState, from: number | null): number[] {
  if (from === null || !isHumanTurn(state) || phase(state) !== 'moving' || state.board[from] !== HUMAN) return [];
  return (ADJACENT[from] ?? []).filter((to) => state.board[to] === null);
}

/** Whether activating `point` would do something, for the pointer cursor and aria-disabled. */
export function isActionable({ state, selected }: RotaView, point: number): boolean {
  if (!isHumanTurn(state)) return false;
  const cell = state.board[point];
  if (phase(state) === 'placement') return cell === null;
  return cell === HUMAN || targetsFrom(state, selected).includes(point);
}

export function statusText({ state, selected }: RotaView): string {
  const result = outcome(state);
  if (result?.kind === 'draw') return `Draw after ${DRAW_AFTER_MOVES} moves`;
  if (result?.reason === 'no-moves') {
    return result.winner === COMPUTER
      ? 'No moves left: you are blocked, so the computer wins'
      : 'No moves left: the computer is blocked, so you win!';
  }
  if (result) return result.winner === HUMAN ? 'You win!' : 'The computer wins';
  if (state.toMove === COMPUTER) return 'Computer is thinking…';
  if (phase(state) === 'placement') return `Your turn: place a piece (${piecesLeftToPlace(state, HUMAN)} left)`;
  if (selected === null) return 'Your turn: pick one of your pieces to move';
  return targetsFrom(state, selected).length > 0
    ? 'Your turn: pick an empty point next to it'
    : 'That piece is blocked: pick another';
}

/** Points are numbered from 1 for people; the model counts from 0. */
export function pointName(point: number): string {
  return point === CENTER ? 'Center' : `Point ${point + 1}`;
}

export function pointLabel({ state, selected }: RotaView, point: number): string {
  const cell = state.board[point];
  const parts = [pointName(point), cell === HUMAN ? 'your piece' : cell === COMPUTER ? "computer's piece" : 'empty'];
  if (selected === point) parts.push('selected');
  if (targetsFrom(state, selected).includes(point)) parts.push('you can move here');
  const result = outcome(state);
  if (result?.kind === 'win' && result.line?.includes(point)) parts.push('part of the winning line');
  return parts.join(', ');
}

/**
 * The human clicked or pressed `point`. Placing fills an empty point; moving is two steps: pick
 * one of your pieces (again to drop it), then an empty neighbour. Anything else clears the pick.
 */
export function activatePoint(view: RotaView, point: number): RotaView {
  const { state, selected } = view;
  if (!isHumanTurn(state)) return view;
  if (phase(state) === 'placement') {
    return state.board[point] === null
      ? { state: applyMove(state, { type: 'place', to: point }), selected: null }
      : view;
  }
  if (state.board[point] === HUMAN) return { state, selected: selected === point ? null : point };
  if (selected !== null && targetsFrom(state, selected).includes(point)) {
    return { state: applyMove(state, { type: 'move', from: selected, to: point }), selected: null };
  }
  return { state, selected: null };
}
