// Removes from a production node_modules what cannot run on this machine or is never used there:
// packages built for another OS or CPU, node-llama-cpp's GPU builds (the engine asks for the CPU
// unless told otherwise) and the llama.cpp sources it would only need to compile itself.
// Usage: node prune-native.mjs <node_modules folder>
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = process.argv[2];
if (!root || !existsSync(root)) {
  console.error('usage: node prune-native.mjs <node_modules folder>');
  process.exit(2);
}

// node-llama-cpp names its CPU build after the platform and llama.cpp's name for the CPU.
const LLAMA_ARCH = { x64: 'x64', arm64: 'arm64', arm: 'armv7l' };
const keptLlamaBuild = `${process.platform}-${LLAMA_ARCH[process.arch] ?? process.arch}`;

/** os/cpu lists as npm reads them: a "!name" excludes, any other name includes. */
function allows(list, value) {
  if (!Array.isArray(list) || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const positive = list.filter((entry) => !entry.startsWith('!'));
  return positive.length === 0 || positive.includes(value);
}

const removed = [];
function remove(dir) {
  rmSync(dir, { recursive: true, force: true });
  removed.push(path.relative(root, dir));
}

function visit(modules) {
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(modules, entry.name);
    if (entry.name.startsWith('@')) {
      visit(dir);
      continue;
    }
    const manifestPath = path.join(dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const isLlamaBuild = manifest.name?.startsWith('@node-llama-cpp/');
    // node-llama-cpp's builds list several CPUs each (the ARM ones include x64 for cross
    // builds), so only the exact name tells which one is this machine's.
    if (
      !allows(manifest.os, process.platform) ||
      !allows(manifest.cpu, process.arch) ||
      (isLlamaBuild && manifest.name !== `@node-llama-cpp/${keptLlamaBuild}`)
    ) {
      remove(dir);
      continue;
    }
    if (manifest.name === 'node-llama-cpp') {
      const sources = path.join(dir, 'llama', 'gitRelease.bundle');
      if (existsSync(sources)) remove(sources);
    }
    const nested = path.join(dir, 'node_modules');
    if (existsSync(nested)) visit(nested);
  }
}

visit(root);
if (!existsSync(path.join(root, '@node-llama-cpp', keptLlamaBuild))) {
  console.error(`No node-llama-cpp build for ${keptLlamaBuild} was installed: the engine could not run.`);
  process.exit(1);
}
console.log(`pruned ${removed.length} folders: ${removed.join(', ') || 'none'}`);
