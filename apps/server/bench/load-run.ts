// One autocannon run, and what went wrong in it: the load table and the soak read results the same way.
import autocannon from 'autocannon';

/** The settings every run of the load bench shares. */
export const CONNECTIONS = 50;

export type RunOptions = Pick<autocannon.Options, 'url' | 'headers' | 'requests' | 'connections'> & { seconds: number };

export function run({ seconds, connections = CONNECTIONS, ...options }: RunOptions): Promise<autocannon.Result> {
  // 10 s per request: a stalled request counts as a timeout (an error) instead of hanging the run.
  return autocannon({ ...options, connections, duration: seconds, timeout: 10 });
}

/** Errors and non-2xx answers of a run, by status code ("" when there were none). */
export function problems(result: autocannon.Result): string {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count ?? 0}x ${code}`);
  const parts = [
    result.errors ? `${result.errors} errors (${result.timeouts} timeouts)` : '',
    result.non2xx ? `${result.non2xx} non-2xx (${statuses.join(', ')})` : '',
  ].filter(Boolean);
  return parts.join(', ');
}
