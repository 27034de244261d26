// Rota, the Roman game on a wheel: pure, immutable rules shared by the board and the computer player.
// Points 0..7 run clockwise round the rim (0 at the top); point 8 is the center.

export type Player = 1 | 2;
export type Cell = Player | null;
export type Phase = 'placement' | 'moving';
export type Line = readonly [number, number, number];

/** The human always starts; the computer answers. */
export const HUMAN: Player = 1;
export const COMPUTER: Player = 2;

export const CENTER = 8;
export const OUTER_POINTS = 8;
export const POINT_COUNT = 9;
export const PIECES_PER_PLAYER = 3;
export const PLACEMENTS_TOTAL = PIECES_PER_PLAYER * 2;
/** Moves (by either player) allowed in the moving phase before the game is called a draw. */
export const DRAW_AFTER_MOVES = 40;

const outer = (i: number) => ((i % OUTER_POINTS) + OUTER_POINTS) % OUTER_POINTS;

/** The one adjacency table: each rim point touches its two rim neighbours and the center. */
export const ADJACENT: readonly (readonly number[])[] = [
  ...Array.from({ length: OUTER_POINTS }, (_, i) => [outer(i - 1), outer(i + 1), CENTER]),
  Array.from({ length: OUTER_POINTS }, (_, i) => i),
];

/** Three consecutive rim points (wrapping 7 → 0), then the four diameters through the center. */
export const LINES: readonly Line[] = [
  ...Array.from({ length: OUTER_POINTS }, (_, i): Line => [i, outer(i + 1), outer(i + 2)]),
  ...Array.from({ length: OUTER_POINTS / 2 }, (_, i): Line => [i, CENTER, i + OUTER_POINTS / 2]),
];

export type Move = { type: 'place'; to: number } | { type: 'move'; from: number; to: number };

export interface RotaState {
  /** Nine cells: indexes 0..7 the rim, 8 the center. */
  readonly board: readonly Cell[];
  readonly toMove: Player;
  /** Pieces placed so far by both players (0..6). */
  readonly placements: number;
  /** Moves made in the moving phase by both players; drives the draw rule. */
  readonly movingMoves: number;
}

export type Outcome =
  | { kind: 'win'; winner: Player; reason: 'line'; line: Line }
  | { kind: 'win'; winner: Player; reason: 'no-moves'; line: null }
  | { kind: 'draw'; reason: 'move-limit' };

export function opponent(player: Player): Player {
  return player === 1 ? 2 : 1;
}

export function initialState(): RotaState {
  return { board: Array<Cell>(POINT_COUNT).fill(null), toMove: HUMAN, placements: 0, movingMoves: 0 };
}

export function phase(state: RotaState): Phase {
  return state.placements < PLACEMENTS_TOTAL ? 'placement' : 'moving';
}

/** How many pieces `player` still has to place. */
export function piecesLeftToPlace(state: RotaState, player: Player): number {
  return PIECES_PER_PLAYER - state.board.filter((cell) => cell === player).length;
}

export function lineOf(board: readonly Cell[], player: Player): Line | null {
  return LINES.find((line) => line.every((point) => board[point] === player)) ?? null;
}

/** Moves for the side to move, ignoring whether the game is already over. */
function candidateMoves(state: RotaState): Move[] {
  const { board, toMove } = state;
  const moves: Move[] = [];
  if (phase(state) === 'placement') {
    for (let to = 0; to < POINT_COUNT; to++) if (board[to] === null) moves.push({ type: 'place', to });
    return moves;
  }
  for (let from = 0; from < POINT_COUNT; from++) {
    if (board[from] !== toMove) continue;
    for (const to of ADJACENT[from] ?? []) if (board[to] === null) moves.push({ type: 'move', from, to });
  }
  return moves;
}

/**
 * The winner and, for a line win, its points. The last mover is checked first because only
 * their move can have completed a line. A player with no legal move on their turn loses.
 */
export function winner(state: RotaState): { player: Player; line: Line | null } | null {
  const lastMover = opponent(state.toMove);
  for (const player of [lastMover, state.toMove]) {
    const line = lineOf(state.board, player);
    if (line) return { player, line };
  }
  if (phase(state) === 'moving' && candidateMoves(state).length === 0) return { player: lastMover, line: null };
  return null;
}

/** The game's result, or null while it is still being played. A win on the last allowed move beats the draw. */
export function outcome(state: RotaState): Outcome | null {
  const win = winner(state);
  if (win) {
    return win.line
      ? { kind: 'win', winner: win.player, reason: 'line', line: win.line }
      : { kind: 'win', winner: win.player, reason: 'no-moves', line: null };
  }
  if (state.movingMoves >= DRAW_AFTER_MOVES) return { kind: 'draw', reason: 'move-limit' };
  return null;
}

export function isOver(state: RotaState): boolean {
  return outcome(state) !== null;
}

/** Every move the side to move may make; none once the game is over. */
export function legalMoves(state: RotaState): Move[] {
  return isOver(state) ? [] : candidateMoves(state);
}

export function isLegalMove(state: RotaState, move: Move): boolean {
  return legalMoves(state).some((m) => sameMove(m, move));
}

export function sameMove(a: Move, b: Move): boolean {
  return a.type === b.type && a.to === b.to && (a.type === 'place' || (b.type === 'move' && a.from === b.from));
}

/** The state after `move`; throws on an illegal move so a bug cannot quietly corrupt a game. */
export function applyMove(state: RotaState, move: Move): RotaState {
  if (!isLegalMove(state, move)) throw new Error(`Illegal Rota move: ${JSON.stringify(move)}`);
  const board = [...state.board];
  if (move.type === 'move') board[move.from] = null;
  board[move.to] = state.toMove;
  return {
    board,
    toMove: opponent(state.toMove),
    placements: move.type === 'place' ? state.placements + 1 : state.placements,
    movingMoves: move.type === 'move' ? state.movingMoves + 1 : state.movingMoves,
  };
}

/** Build a position directly (tests, puzzles): `pieces` lists each player's points. */
export function stateFromPieces(
  pieces: { [P in Player]: readonly number[] },
  options: { toMove: Player; phase?: Phase; movingMoves?: number },
): RotaState {
  const board = Array<Cell>(POINT_COUNT).fill(null);
  for (const player of [HUMAN, COMPUTER] as const) {
    for (const point of pieces[player]) {
      if (board[point] !== null) throw new Error(`Point ${point} is taken twice`);
      board[point] = player;
    }
  }
  const placed = board.filter((cell) => cell !== null).length;
  // A hand-built position may have fewer than six pieces yet still be in the moving phase.
  const placements = options.phase === 'moving' ? PLACEMENTS_TOTAL : placed;
  if (placements > PLACEMENTS_TOTAL || (options.phase === 'placement' && placements === PLACEMENTS_TOTAL)) {
    throw new Error('Too many pieces for the placement phase');
  }
  return { board, toMove: options.toMove, placements, movingMoves: options.movingMoves ?? 0 };
}
