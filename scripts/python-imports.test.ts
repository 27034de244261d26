// The Python trainer's modules import one another without a circle, as biome's noImportCycles
// holds for the TypeScript (lint-boundaries.test.ts). Python's own parser (ast) reads every import
// of the package at any depth: an import inside a function still closes a circle, it only hides it
// until that function runs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const TRAINER = path.resolve(import.meta.dirname, '../packages/engine/python/ownvoice_trainer');

/**
 * Prints {module: [modules of the package it imports]} for the package folder argv[1]: `from .x
 * import y`, `from . import x`, `import pkg.x` and `from pkg(.x) import y`, wherever they stand.
 */
const GRAPH_PY = `
import ast, json, os, sys
root = sys.argv[1]
package = os.path.basename(os.path.normpath(root))
modules = sorted(f[:-3] for f in os.listdir(root) if f.endswith(".py"))
graph = {}
for m in modules:
    with open(os.path.join(root, m + ".py")) as f:
        tree = ast.parse(f.read(), m + ".py")
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module
            elif node.level == 0 and node.module and (node.module + ".").startswith(package + "."):
                base = node.module[len(package) + 1:]
            else:
                continue
            if base:
                found.add(base.split(".")[0])
            else:
                found.update(a.name for a in node.names)  # from . import x: x may be a module
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith(package + "."))
    graph[m] = sorted(x for x in found if x in modules and x != m)
print(json.dumps(graph))
`;

type Graph = Record<string, string[]>;

function importGraph(folder: string): Graph {
  return JSON.parse(execFileSync('python3', ['-c', GRAPH_PY, folder], { encoding: 'utf8' })) as Graph;
}

/** A circle of the graph as the modules along it, the first again at the end; null if it has none. */
function findCycle(graph: Graph): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
    state.set(node, 'open');
    trail.push(node);
    for (const next of graph[node] ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    trail.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of Object.keys(graph).sort()) {
    const circle = visit(node);
    if (circle) return circle;
  }
  return null;
}

const named = (circle: string[] | null) => circle?.map((m) => `${m}.py`).join(' -> ');

describe('the Python trainer imports without a circle', () => {
  it('finds a planted circle, and none in a graph without one', () => {
    expect(findCycle({ a: ['b'], b: ['a'] })).toEqual(['a', 'b', 'a']);
    expect(findCycle({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [] })).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle({ a: ['b', 'c'], b: ['c'], c: [] })).toBeNull();
  });

  it('reads imports at any depth, relative or by the package name', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-py-'));
    const pkg = path.join(dir, 'pkg');
    try {
      mkdirSync(pkg);
      writeFileSync(path.join(pkg, 'a.py'), 'from .b import f\n');
      writeFileSync(path.join(pkg, 'b.py'), 'def f():\n    if True:\n        from . import c\n');
      writeFileSync(path.join(pkg, 'c.py'), 'def g():\n    import pkg.d\n');
      writeFileSync(path.join(pkg, 'd.py'), 'import json\n\n\ndef h():\n    from pkg.a import x\n');
      const graph = importGraph(pkg);
      expect(graph).toEqual({ a: ['b'], b: ['c'], c: ['d'], d: ['a'] });
      expect(named(findCycle(graph))).toBe('a.py -> b.py -> c.py -> d.py -> a.py');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds for packages/engine/python/ownvoice_trainer', () => {
    const graph = importGraph(TRAINER);
    expect(Object.keys(graph)).toContain('train');
    const circle = findCycle(graph);
    expect(
      circle,
      `its modules import in a circle: ${named(circle)}; move what they share into a module below them`,
    ).toBeNull();
  });
});
