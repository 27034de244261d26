// Lays out the production modules of the run-time workspaces in a package's folder as
// `npm ci --omit=dev --workspace …` would (the lockfile fixes where each goes), from this
// checkout's node_modules rather than installing them a second time: npm ci took 25 s of CPU,
// beside CI's tests. `npm ls` names the packages; each is hard-linked file by file (copied where
// the folders are on different disks) without its own node_modules, whose packages npm ls names
// on their own. The package folder must be new: a file there is never written through a link.
// Usage: node production-modules.mjs <repo> <package folder> <workspace>...
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';

const [repo, app, ...workspaces] = process.argv.slice(2);
if (!repo || !app || workspaces.length === 0) {
  console.error('usage: node production-modules.mjs <repo> <package folder> <workspace>...');
  process.exit(2);
}

/** A file of `to`'s, sharing `from`'s data: a hard link, or a copy across disks. */
function placeFile(from, to) {
  try {
    linkSync(from, to);
  } catch (error) {
    if (error.code !== 'EXDEV') throw error;
    copyFileSync(from, to);
  }
}

/** A package's folder at `to`, but for its node_modules. */
function placePackage(from, to) {
  if (lstatSync(from).isSymbolicLink()) {
    // A workspace's link (node_modules/@ownvoice/engine -> ../../packages/engine), as npm makes it.
    mkdirSync(path.dirname(to), { recursive: true });
    symlinkSync(readlinkSync(from), to);
    return;
  }
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) placePackage(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else placeFile(source, target);
  }
}

const listed = execFileSync(
  'npm',
  ['ls', '--omit=dev', '--all', '--parseable', ...workspaces.flatMap((w) => ['--workspace', w])],
  { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
)
  .split('\n')
  .filter(Boolean);
let placed = 0;
for (const dir of listed) {
  const relative = path.relative(repo, dir);
  // The workspaces themselves (and the repository) are not modules: the package takes their files.
  if (!relative.split(path.sep).includes('node_modules') || !existsSync(dir)) continue;
  placePackage(dir, path.join(app, relative));
  placed += 1;
}
console.error(`production-modules: ${placed} packages from ${path.join(repo, 'node_modules')}`);
