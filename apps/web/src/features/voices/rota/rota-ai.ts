// The computer's Rota player: negamax with alpha-beta pruning to a fixed depth. The game is tiny,
// so a full-width search is cheap and the play stays deterministic (no randomness, no clock).
import {
  ADJACENT,
  CENTER,
  type Cell,
  DRAW_AFTER_MOVES,
  LINES,
  type Line,
  legalMoves,
  type Move,
  opponent,
  outcome,
  PLACEMENTS_TOTAL,
  type Player,
  POINT_COUNT,
  phase,
  type RotaState,
} from './rota-rules';

/** Plies searched: three moves for each side. */
export const SEARCH_DEPTH = 6;
/** Far above any heuristic score, so a forced result always outweighs positional play. */
export const WIN_SCORE = 1000;

/** What a search found, with counters the tests use to check how deep and wide it went. */
export interface SearchResult {
  move: Move | null;
  /** From the point of view of the side to move. */
  score: number;
  nodes: number;
  /** The deepest ply visited (the root is ply 0). */
  maxPly: number;
}

const CENTER_BONUS = 3;
/** Score for an uncontested line by how many of its points one player already holds. */
const OPEN_LINE_SCORE = [0, 1, 4] as const;
/** A two-in-a-line whose gap the owner can fill next move: one tempo from winning. */
const THREAT_SCORE = 8;

/** The lines through each point, so a move is checked only against the lines it can complete. */
const LINES_THROUGH: readonly (readonly Line[])[] = Array.from({ length: POINT_COUNT }, (_, point) =>
  LINES.filter((line) => line.includes(point)),
);

/** A quiet position's value for `player`: open lines, immediate threats and the center. */
export function evaluate(state: RotaState, player: Player): number {
  return evaluateBoard(state.board, phase(state) === 'placement', player);
}

function evaluateBoard(board: readonly Cell[], placing: boolean, player: Player): number {
  const other = opponent(player);
  let score = 0;
  for (const line of LINES) {
    let mine = 0;
    let theirs = 0;
    let gap = -1;
    for (const point of line) {
      if (board[point] === player) mine++;
      else if (board[point] === other) theirs++;
      else gap = point;
    }
    if (mine > 0 && theirs > 0) continue;
    const owner = mine > 0 ? player : other;
    const count = mine > 0 ? mine : theirs;
    let value = OPEN_LINE_SCORE[count as 0 | 1 | 2] ?? 0;
    // While placing, any empty gap can be filled; while moving, only by a piece next to it.
    if (count === 2 && (placing || canReach(board, owner, gap, line))) value += THREAT_SCORE;
    score += owner === player ? value : -value;
  }
  if (board[CENTER] === player) score += CENTER_BONUS;
  else if (board[CENTER] === other) score -= CENTER_BONUS;
  return score;
}

function canReach(board: readonly Cell[], owner: Player, gap: number, line: Line): boolean {
  return (ADJACENT[gap] ?? []).some((from) => board[from] === owner && !line.includes(from));
}

function completesLine(board: readonly Cell[], point: number, player: Player): boolean {
  return (LINES_THROUGH[point] ?? []).some((line) => line.every((p) => board[p] === player));
}

// Moves are packed into one number (from + 1, to) so move lists stay flat arrays of integers.
const PLACE = -1;
const pack = (from: number, to: number) => (from + 1) * 16 + to;
const fromOf = (code: number) => (code >> 4) - 1;
const toOf = (code: number) => code & 15;

/** Moves for `player` in the same order as `legalMoves`, so ties resolve the same way. */
function generate(board: readonly Cell[], placing: boolean, player: Player): number[] {
  const moves: number[] = [];
  if (placing) {
    for (let to = 0; to < POINT_COUNT; to++) if (board[to] === null) moves.push(pack(PLACE, to));
    return moves;
  }
  for (let from = 0; from < POINT_COUNT; from++) {
    if (board[from] !== player) continue;
    for (const to of ADJACENT[from] ?? []) if (board[to] === null) moves.push(pack(from, to));
  }
  return moves;
}

/**
 * Search `state` to `depth` plies. Ties go to the earliest move in `legalMoves` order.
 * The tree is walked on one mutable board (make/unmake) because copying states at every node
 * made the opening search several times slower; the results match the immutable rules.
 */
export function searchRota(state: RotaState, depth: number = SEARCH_DEPTH): SearchResult {
  if (!Number.isInteger(depth) || depth < 1) throw new Error(`Search depth must be a positive integer, got ${depth}`);
  const board: Cell[] = [...state.board];
  let placements = state.placements;
  let movingMoves = state.movingMoves;
  let nodes = 1;
  let maxPly = 0;

  const play = (code: number, player: Player) => {
    const from = fromOf(code);
    if (from === PLACE) placements++;
    else {
      board[from] = null;
      movingMoves++;
    }
    board[toOf(code)] = player;
  };
  const undo = (code: number) => {
    const from = fromOf(code);
    if (from === PLACE) placements--;
    else {
      board[from] = board[toOf(code)] ?? null;
      movingMoves--;
    }
    board[toOf(code)] = null;
  };

  // Scores are for `toMove`; `lastTo` is where the previous move landed, the only place a new line can appear.
  const negamax = (toMove: Player, lastTo: number, remaining: number, ply: number, alpha: number, beta: number) => {
    nodes++;
    if (ply > maxPly) maxPly = ply;
    // The same order as the rules' `outcome`: a completed line, then no moves, then the draw.
    if (completesLine(board, lastTo, opponent(toMove))) return -(WIN_SCORE - ply);
    const placing = placements < PLACEMENTS_TOTAL;
    const moves = generate(board, placing, toMove);
    if (moves.length === 0) return -(WIN_SCORE - ply);
    if (movingMoves >= DRAW_AFTER_MOVES) return 0;
    if (remaining === 0) return evaluateBoard(board, placing, toMove);
    let best = -Infinity;
    for (const code of moves) {
      play(code, toMove);
      const score = -negamax(opponent(toMove), toOf(code), remaining - 1, ply + 1, -beta, -alpha);
      undo(code);
      if (score > best) best = score;
      if (best > alpha) alpha = best;
      if (alpha >= beta) break;
    }
    return best;
  };

  const result = outcome(state);
  if (result) {
    const score = result.kind === 'draw' ? 0 : result.winner === state.toMove ? WIN_SCORE : -WIN_SCORE;
    return { move: null, score, nodes, maxPly };
  }
  let bestMove: Move | null = null;
  let bestScore = -Infinity;
  for (const move of legalMoves(state)) {
    const code = pack(move.type === 'move' ? move.from : PLACE, move.to);
    play(code, state.toMove);
    // The root keeps beta open so a later move must be strictly better to replace the first best.
    const score = -negamax(opponent(state.toMove), move.to, depth - 1, 1, -Infinity, -bestScore);
    undo(code);
    if (score > bestScore) {
      bestScore = score;
      bestMove = move;
    }
  }
  return { move: bestMove, score: bestScore, nodes, maxPly };
}

/** The computer's move for the side to move; throws when the game is already over. */
export function chooseMove(state: RotaState): Move {
  const { move } = searchRota(state);
  if (!move) throw new Error('No move to choose: the game is over');
  return move;
}
