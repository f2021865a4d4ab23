/**
 * The import check of the test command (`npm run check:layers`, run by `npm test` after the build).
 *
 * A folder is the first directory under `src/` (`src/batch/...` is `batch`; a file directly under `src/`
 * counts as a folder of its own name, so `src/errors.ts` is `errors`), plus `jobs` for `jobs/`. It fails on:
 * - a folder that is not in the layer map below (add it, at the level of the lowest folder that imports it);
 * - an import of `jobs/` from anywhere but the composition root `src/app`;
 * - an upward import: a folder importing a folder of a higher level;
 * - a cycle between folders (also between folders of one level);
 * - an import from `src/` or `jobs/` into any other tree of the repository (`test/`, `bench/`, `scripts/`).
 * Type-only imports count: a type shared both ways is a cycle in the design all the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * The layer map, top to bottom (DESIGN.md, TEAM.md). A folder may import folders of its own level and of
 * the levels below it, never above. A new folder goes into the level that matches what it imports and
 * what imports it; when unsure, as low as its imports allow.
 */
export const LAYERS: ReadonlyArray<readonly string[]> = [
  ['cli'],
  // The web console and its `cli serve`: below the commands, above the composition root.
  ['console'],
  // The composition root: builds workers, wires `jobs/`; the only importer of `jobs/`.
  ['app'],
  ['jobs'],
  // Long-running entry points run through the batch lifecycle; completion notices tell of a finished batch.
  ['watch', 'schedule', 'notify'],
  ['batch'],
  // The inquiry queue; the account history across batches (it reads report results); people's decisions
  // and their audit trail (the report writer applies them).
  ['queue', 'history', 'review'],
  // The report reads the provider's outcomes and the matcher's verdicts.
  ['report'],
  ['provider'],
  // Ground: values and edges with no knowledge of batches.
  // metrics: the prom-client registry, handed to the places that count as narrow callbacks.
  ['csv', 'xlsx', 'matching', 'config', 'redis', 'logging', 'sandbox', 'metrics'],
  ['errors', 'clock', 'host'],
];

/** Folders only some folders may import, whatever their level. */
export const ONLY_IMPORTED_BY: Readonly<Record<string, readonly string[]>> = { jobs: ['app'] };

export interface ImportEdge {
  /** Repository-relative, `/`-separated: `src/batch/lifecycle.ts`. */
  from: string;
  /** The imported module, resolved the same way (`.js` specifiers name `.ts` sources). */
  to: string;
}

export interface LayerRules {
  layers: ReadonlyArray<readonly string[]>;
  onlyImportedBy: Readonly<Record<string, readonly string[]>>;
}

const MAP_FILE = 'scripts/check-layers.ts';

/** `src/batch/x.ts` -> `batch`, `src/errors.ts` -> `errors`, `jobs/inquiry.ts` -> `jobs`; undefined outside the layered trees. */
export function folderOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] === 'jobs') return 'jobs';
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  return parts.length === 2 ? parts[1]!.replace(/\.[cm]?[jt]sx?$/, '') : parts[1];
}

/** Every problem of the import graph, one message each (empty when the graph keeps the layers). */
export function checkLayers(
  files: readonly string[],
  edges: readonly ImportEdge[],
  rules: LayerRules = { layers: LAYERS, onlyImportedBy: ONLY_IMPORTED_BY },
): string[] {
  const problems: string[] = [];
  const level = new Map<string, number>();
  for (const [index, folders] of rules.layers.entries()) {
    for (const folder of folders) level.set(folder, index);
  }
  const describeLevel = (folder: string) => `level ${level.get(folder)! + 1} (${rules.layers[level.get(folder)!]!.join(', ')})`;

  const unknown = new Set<string>();
  for (const file of files) {
    const folder = folderOf(file);
    if (folder !== undefined && !level.has(folder)) unknown.add(folder);
  }
  for (const folder of [...unknown].sort()) {
    problems.push(
      `${displayFolder(folder)} is not in the layer map: add '${folder}' to LAYERS in ${MAP_FILE}, at the level of what it imports and what imports it`,
    );
  }

  const folderEdges = new Map<string, Map<string, ImportEdge>>();
  for (const edge of edges) {
    const from = folderOf(edge.from);
    if (from === undefined) continue;
    const to = folderOf(edge.to);
    if (to === undefined) {
      problems.push(
        `${edge.from} imports ${edge.to}, outside src/ and jobs/: the application must not depend on tests, benchmarks or scripts`,
      );
      continue;
    }
    if (from === to) continue;
    const allowed = rules.onlyImportedBy[to];
    if (allowed !== undefined && !allowed.includes(from)) {
      problems.push(
        `${edge.from} imports ${edge.to}: only ${allowed.map(displayFolder).join(', ')} may import ${displayFolder(to)}; take what you need as a dependency wired in the composition root`,
      );
    }
    if (level.has(from) && level.has(to) && level.get(to)! < level.get(from)!) {
      problems.push(
        `${edge.from} imports ${edge.to}: an upward import (${from} is at ${describeLevel(from)}, ${to} at ${describeLevel(to)}); move the shared piece down or pass it in`,
      );
    }
    const targets = folderEdges.get(from) ?? new Map<string, ImportEdge>();
    if (!targets.has(to)) targets.set(to, edge);
    folderEdges.set(from, targets);
  }

  for (const cycle of folderCycles(folderEdges)) {
    const links = cycle.map((folder, index) => folderEdges.get(folder)!.get(cycle[(index + 1) % cycle.length]!)!);
    problems.push(
      `folder cycle ${[...cycle, cycle[0]].join(' -> ')}: ${links.map((link) => `${link.from} imports ${link.to}`).join('; ')}`,
    );
  }
  return problems;
}

const displayFolder = (folder: string): string => (folder === 'jobs' ? 'jobs/' : `src/${folder}`);

/**
 * One cycle per strongly connected group of folders (Tarjan), listed from its alphabetically first folder
 * along existing edges, so the message shows a path a developer can follow.
 */
function folderCycles(graph: Map<string, Map<string, ImportEdge>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.map((group) => pathThrough(graph, new Set(group)));
}

/** A cycle inside a strongly connected group: from its first folder, follow edges inside the group until one repeats. */
function pathThrough(graph: Map<string, Map<string, ImportEdge>>, group: Set<string>): string[] {
  const start = [...group].sort()[0]!;
  const path = [start];
  for (;;) {
    const next = [...(graph.get(path.at(-1)!)?.keys() ?? [])].filter((folder) => group.has(folder)).sort()[0]!;
    const seen = path.indexOf(next);
    if (seen >= 0) return path.slice(seen);
    path.push(next);
  }
}

/** The TypeScript files of the layered trees, repository-relative. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(join(root, directory), { withFileTypes: true })) {
      const path = posix.join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.[cm]?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const tree of ['src', 'jobs']) walk(tree);
  return files.sort();
}

/** Relative imports of each file (static, type-only, re-exports and dynamic `import()`), resolved to source paths. */
export function importEdges(root: string, files: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, from), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue; // a package
      edges.push({ from, to: posix.normalize(posix.join(posix.dirname(from), fileName)).replace(/\.([cm]?)js$/, '.$1ts') });
    }
  }
  return edges;
}

function main(): number {
  const root = process.argv[2] ?? process.cwd();
  const files = sourceFiles(root);
  const edges = importEdges(root, files);
  const problems = checkLayers(files, edges);
  if (problems.length === 0) {
    process.stdout.write(`layer check: ${files.length} files, ${edges.length} imports: the layers hold, no folder cycle\n`);
    return 0;
  }
  process.stderr.write(`layer check failed (${problems.length} problem${problems.length === 1 ? '' : 's'}; the map is in ${MAP_FILE}):\n`);
  for (const problem of problems) process.stderr.write(`  - ${problem}\n`);
  return 1;
}

const invokedPath = process.argv[1];
if (invokedPath !== undefined && import.meta.url === pathToFileURL(invokedPath).href) process.exitCode = main();
