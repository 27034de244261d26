// A one-line progress bar on stderr for long work in a terminal; plain lines when not a TTY.
export function progressBar(label: string) {
  let last = '';
  return {
    update(percent: number, detail = '') {
      const width = 30;
      const filled = Math.round((Math.max(0, Math.min(100, percent)) / 100) * width);
      const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent.toFixed(0).padStart(3)}% ${detail}`;
      if (process.stderr.isTTY)
        process.stderr.write(`\r${line.slice(0, process.stderr.columns - 1).padEnd(last.length)}`);
      else if (line !== last) process.stderr.write(`${line}\n`);
      last = line;
    },
    done() {
      if (process.stderr.isTTY) process.stderr.write('\n');
    },
  };
}

export const formatSeconds = (s: number): string =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${Math.round((s % 3600) / 60)}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s`
      : `${Math.round(s)}s`;
