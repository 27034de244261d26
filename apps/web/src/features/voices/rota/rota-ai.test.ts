import { describe, expect, it } from 'vitest';
import { chooseMove, evaluate, SEARCH_DEPTH, searchRota, WIN_SCORE } from './rota-ai';
import {
  applyMove,
  COMPUTER,
  DRAW_AFTER_MOVES,
  HUMAN,
  initialState,
  isOver,
  legalMoves,
  type Move,
  opponent,
  outcome,
  PLACEMENTS_TOTAL,
  type RotaState,
  stateFromPieces,
} from './rota-rules';

const place = (to: number): Move => ({ type: 'place', to });
const move = (from: number, to: number): Move => ({ type: 'move', from, to });

/** Plain minimax on the immutable rules, no pruning: the yardstick for the fast search. */
function referenceScore(state: RotaState, depth: number, ply = 0): number {
  const result = outcome(state);
  if (result) return result.kind === 'draw' ? 0 : result.winner === state.toMove ? WIN_SCORE - ply : ply - WIN_SCORE;
  if (depth === 0) return evaluate(state, state.toMove);
  return Math.max(...legalMoves(state).map((m) => -referenceScore(applyMove(state, m), depth - 1, ply + 1)));
}

/** A small seeded generator so "random" opponents replay the same way on every run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomMove(state: RotaState, random: () => number): Move {
  const moves = legalMoves(state);
  return moves[Math.floor(random() * moves.length)] as Move;
}

describe('Rota computer player', () => {
  it('takes an immediate win while placing', () => {
    // Computer holds 1 and the center; placing on 5 completes the diameter 1-8-5.
    const state = stateFromPieces({ 1: [0, 2], 2: [1, 8] }, { toMove: COMPUTER });
    expect(chooseMove(state)).toEqual(place(5));
    expect(searchRota(state).score).toBe(WIN_SCORE - 1);
  });

  it('takes an immediate win while moving, even when the opponent threatens one too', () => {
    // Computer: 0, 1 and the center, which can slide to 2. Human threatens 6 -> 5 for 3-4-5.
    const state = stateFromPieces({ 1: [3, 4, 6], 2: [0, 1, 8] }, { toMove: COMPUTER });
    const chosen = chooseMove(state);
    expect(chosen).toEqual(move(8, 2));
    expect(outcome(applyMove(state, chosen))).toMatchObject({ kind: 'win', winner: COMPUTER, line: [0, 1, 2] });
  });

  it('blocks an immediate loss while placing', () => {
    // Human threatens 1 to complete 0-1-2; the computer has no win of its own.
    const state = stateFromPieces({ 1: [0, 2], 2: [4] }, { toMove: COMPUTER });
    expect(chooseMove(state)).toEqual(place(1));
  });

  it('blocks an immediate loss while moving', () => {
    // Human threatens 6 -> 7 for 7-0-1; only the computer's center piece can reach 7 first.
    const state = stateFromPieces({ 1: [0, 1, 6], 2: [2, 5, 8] }, { toMove: COMPUTER });
    const chosen = chooseMove(state);
    expect(chosen).toEqual(move(8, 7));
    const next = applyMove(state, chosen);
    for (const reply of legalMoves(next)) expect(outcome(applyMove(next, reply))).toBeNull();
  });

  it('searches exactly six plies', () => {
    expect(SEARCH_DEPTH).toBe(6);
    const opening = searchRota(initialState());
    expect(opening.maxPly).toBe(6);
    // Alpha-beta keeps the opening far below the 60,480 leaves of a full six-ply tree.
    expect(opening.nodes).toBeLessThan(20_000);
    expect(searchRota(initialState(), 4).maxPly).toBe(4);
  });

  it('finds a win three moves away that a four-ply search cannot see', () => {
    // Human (to move): 0, 3, 4. Computer: 1, 2 and the center. The win lands on the human's third move.
    const state = stateFromPieces({ 1: [0, 3, 4], 2: [1, 2, 8] }, { toMove: HUMAN });
    expect(searchRota(state, 4).score).toBeLessThan(WIN_SCORE - SEARCH_DEPTH);
    expect(searchRota(state).score).toBe(WIN_SCORE - 5);
    // Whatever the defender does (here the same search), the forced line wins within five plies.
    let game = state;
    for (let ply = 0; ply < 5 && !isOver(game); ply++) game = applyMove(game, chooseMove(game));
    expect(outcome(game)).toMatchObject({ kind: 'win', winner: HUMAN });
  });

  it('sees a loss six plies away that a four-ply search misses', () => {
    // Computer to place its last piece against 0, 3, 4: every choice loses on the human's third move.
    const state = stateFromPieces({ 1: [0, 3, 4], 2: [1, 2] }, { toMove: COMPUTER });
    expect(searchRota(state, 4).score).toBeGreaterThan(-(WIN_SCORE - SEARCH_DEPTH));
    expect(searchRota(state).score).toBe(-(WIN_SCORE - 6));
  });

  it('prefers the quickest win to an earlier-listed slower one', () => {
    // Placing on 3 (first in move order) also wins by force, but 7 completes 6-7-0 at once.
    const state = stateFromPieces({ 1: [0, 6], 2: [1, 2] }, { toMove: HUMAN });
    expect(searchRota(applyMove(state, place(3)), 5).score).toBeLessThanOrEqual(-(WIN_SCORE - 5));
    expect(chooseMove(state)).toEqual(place(7));
    expect(searchRota(state).score).toBe(WIN_SCORE - 1);
  });

  it('matches plain minimax and breaks ties by move order', () => {
    const random = seeded(7);
    const positions: RotaState[] = [];
    for (let game = 0; game < 6; game++) {
      let state = initialState();
      for (let ply = 0; ply < 14 && !isOver(state); ply++) {
        if (ply >= 3) positions.push(state);
        state = applyMove(state, randomMove(state, random));
      }
    }
    expect(positions.length).toBeGreaterThan(30);
    for (const state of positions) {
      const { move: best, score } = searchRota(state);
      expect(score).toBe(referenceScore(state, SEARCH_DEPTH));
      const values = legalMoves(state).map((m) => -referenceScore(applyMove(state, m), SEARCH_DEPTH - 1, 1));
      expect(best).toEqual(legalMoves(state)[values.indexOf(score)]);
    }
  });

  it('is deterministic for a given position', () => {
    const state = stateFromPieces({ 1: [0, 4], 2: [2] }, { toMove: COMPUTER });
    const first = searchRota(state);
    const again = searchRota(stateFromPieces({ 1: [0, 4], 2: [2] }, { toMove: COMPUTER }));
    expect(again).toEqual(first);
    expect(chooseMove(initialState())).toEqual(chooseMove(initialState()));
  });

  it('scores a position the same from both sides with opposite signs', () => {
    const state = stateFromPieces({ 1: [0, 1, 5], 2: [8, 3, 6] }, { toMove: HUMAN });
    expect(evaluate(state, HUMAN)).toBe(-evaluate(state, COMPUTER));
  });

  it('refuses to move once the game is over', () => {
    const won = stateFromPieces({ 1: [0, 1, 2], 2: [4, 5] }, { toMove: COMPUTER, phase: 'moving' });
    expect(searchRota(won).move).toBeNull();
    expect(() => chooseMove(won)).toThrow(/over/);
  });

  it('plays a whole game against itself to a result', () => {
    let state = initialState();
    let plies = 0;
    while (!isOver(state)) {
      state = applyMove(state, chooseMove(state));
      plies++;
    }
    expect(plies).toBeLessThanOrEqual(PLACEMENTS_TOTAL + DRAW_AFTER_MOVES);
    expect(outcome(state)).not.toBeNull();
  });

  it('never loses to a random opponent when playing second', () => {
    const random = seeded(2024);
    for (let game = 0; game < 10; game++) {
      let state = initialState();
      while (!isOver(state)) {
        state = applyMove(state, state.toMove === COMPUTER ? chooseMove(state) : randomMove(state, random));
      }
      const result = outcome(state);
      expect(result?.kind === 'win' ? result.winner : null).not.toBe(opponent(COMPUTER));
    }
  });
});
