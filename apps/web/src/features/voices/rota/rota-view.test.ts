import { describe, expect, it } from 'vitest';
import { applyMove, COMPUTER, DRAW_AFTER_MOVES, HUMAN, initialState, stateFromPieces } from './rota-rules';
import {
  activatePoint,
  isActionable,
  pointLabel,
  pointName,
  type RotaView,
  statusText,
  targetsFrom,
} from './rota-view';

const view = (state = initialState(), selected: number | null = null): RotaView => ({ state, selected });

describe('Rota status line', () => {
  it('counts down the pieces left to place', () => {
    expect(statusText(view())).toBe('Your turn: place a piece (3 left)');
    const afterOne = applyMove(applyMove(initialState(), { type: 'place', to: 0 }), { type: 'place', to: 8 });
    expect(statusText(view(afterOne))).toBe('Your turn: place a piece (2 left)');
  });

  it('says the computer is thinking on its turn', () => {
    expect(statusText(view(applyMove(initialState(), { type: 'place', to: 0 })))).toBe('Computer is thinking…');
  });

  it('guides the two steps of a move', () => {
    const state = stateFromPieces({ 1: [0, 1, 3], 2: [2, 5, 8] }, { toMove: HUMAN });
    expect(statusText(view(state))).toBe('Your turn: pick one of your pieces to move');
    expect(statusText(view(state, 3))).toBe('Your turn: pick an empty point next to it');
    expect(statusText(view(state, 1))).toBe('That piece is blocked: pick another');
  });

  it('announces wins, the draw and a side with no moves', () => {
    const humanWins = stateFromPieces({ 1: [0, 1, 2], 2: [4, 5] }, { toMove: COMPUTER, phase: 'moving' });
    expect(statusText(view(humanWins))).toBe('You win!');
    const computerWins = stateFromPieces({ 1: [0, 2], 2: [3, 8, 7] }, { toMove: HUMAN, phase: 'moving' });
    expect(statusText(view(computerWins))).toBe('The computer wins');
    const draw = stateFromPieces(
      { 1: [0, 2, 5], 2: [8, 4, 6] },
      { toMove: HUMAN, phase: 'moving', movingMoves: DRAW_AFTER_MOVES },
    );
    expect(statusText(view(draw))).toBe('Draw after 40 moves');
    const humanStuck = stateFromPieces({ 1: [0, 1], 2: [7, 2, 8] }, { toMove: HUMAN, phase: 'moving' });
    expect(statusText(view(humanStuck))).toBe('No moves left: you are blocked, so the computer wins');
    const computerStuck = stateFromPieces({ 1: [7, 2, 8], 2: [0, 1] }, { toMove: COMPUTER, phase: 'moving' });
    expect(statusText(view(computerStuck))).toBe('No moves left: the computer is blocked, so you win!');
  });
});

describe('Rota point labels', () => {
  it('names points from 1 and the center, with what is on them', () => {
    const state = stateFromPieces({ 1: [2], 2: [8] }, { toMove: HUMAN });
    expect(pointName(0)).toBe('Point 1');
    expect(pointLabel(view(state), 0)).toBe('Point 1, empty');
    expect(pointLabel(view(state), 2)).toBe('Point 3, your piece');
    expect(pointLabel(view(state), 8)).toBe("Center, computer's piece");
  });

  it('marks the selected piece, its targets and the winning line', () => {
    const state = stateFromPieces({ 1: [0, 1, 3], 2: [2, 5, 8] }, { toMove: HUMAN });
    expect(pointLabel(view(state, 3), 3)).toBe('Point 4, your piece, selected');
    expect(pointLabel(view(state, 3), 4)).toBe('Point 5, empty, you can move here');
    expect(pointLabel(view(state, 3), 6)).toBe('Point 7, empty');
    const won = stateFromPieces({ 1: [0, 1, 2], 2: [4, 5] }, { toMove: COMPUTER, phase: 'moving' });
    expect(pointLabel(view(won), 1)).toBe('Point 2, your piece, part of the winning line');
  });
});

describe('Rota point activation', () => {
  it('places on an empty point and ignores taken points', () => {
    const placed = activatePoint(view(), 8);
    expect(placed.state.board[8]).toBe(HUMAN);
    expect(placed.state.toMove).toBe(COMPUTER);
    const mine = stateFromPieces({ 1: [8], 2: [0] }, { toMove: HUMAN });
    expect(activatePoint(view(mine), 0)).toEqual(view(mine));
  });

  it('does nothing on the computer’s turn or after the game', () => {
    const computersTurn = applyMove(initialState(), { type: 'place', to: 0 });
    expect(activatePoint(view(computersTurn), 4)).toEqual(view(computersTurn));
    expect(isActionable(view(computersTurn), 4)).toBe(false);
    const won = stateFromPieces({ 1: [0, 1, 2], 2: [4, 5] }, { toMove: COMPUTER, phase: 'moving' });
    expect(activatePoint(view(won), 3)).toEqual(view(won));
  });

  it('moves in two steps: pick a piece, then an empty neighbour', () => {
    const state = stateFromPieces({ 1: [0, 1, 3], 2: [2, 5, 8] }, { toMove: HUMAN });
    const picked = activatePoint(view(state), 3);
    expect(picked.selected).toBe(3);
    expect(targetsFrom(state, 3)).toEqual([4]);
    expect(isActionable(picked, 4)).toBe(true);
    expect(isActionable(picked, 6)).toBe(false);
    const moved = activatePoint(picked, 4);
    expect(moved.selected).toBeNull();
    expect(moved.state.board[3]).toBeNull();
    expect(moved.state.board[4]).toBe(HUMAN);
    expect(moved.state.toMove).toBe(COMPUTER);
  });

  it('drops, switches or clears the pick', () => {
    const state = stateFromPieces({ 1: [0, 1, 3], 2: [2, 5, 8] }, { toMove: HUMAN });
    expect(activatePoint(view(state, 3), 3).selected).toBeNull();
    expect(activatePoint(view(state, 3), 0).selected).toBe(0);
    // An empty point that is not a neighbour, or a computer piece, clears the pick without moving.
    expect(activatePoint(view(state, 3), 6)).toEqual(view(state));
    expect(activatePoint(view(state, 3), 2)).toEqual(view(state));
  });
});
