import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayers, folderOf, importEdges, sourceFiles, type ImportEdge } from '../../scripts/check-layers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A small map: top > middle > bottom, with jobs importable only by top. */
const rules = { layers: [['top'], ['jobs'], ['middle', 'beside'], ['bottom', 'errors']], onlyImportedBy: { jobs: ['top'] } };
const edge = (from: string, to: string): ImportEdge => ({ from, to });
const files = ['src/top/a.ts', 'jobs/job.ts', 'src/middle/m.ts', 'src/beside/b.ts', 'src/bottom/low.ts', 'src/errors.ts'];

describe('the layer check', () => {
  it('places files in folders: the first directory under src/, a file under src/ by its name, and jobs/', () => {
    expect(folderOf('src/batch/lifecycle.ts')).toBe('batch');
    expect(folderOf('src/redis/commands/lease.ts')).toBe('redis');
    expect(folderOf('src/errors.ts')).toBe('errors');
    expect(folderOf('jobs/inquiry.ts')).toBe('jobs');
    expect(folderOf('test/unit/x.ts')).toBeUndefined();
  });

  it('accepts downward imports, imports within a level, and the composition root importing jobs/', () => {
    const edges = [
      edge('src/top/a.ts', 'jobs/job.ts'),
      edge('jobs/job.ts', 'src/middle/m.ts'),
      edge('src/middle/m.ts', 'src/beside/b.ts'),
      edge('src/beside/b.ts', 'src/bottom/low.ts'),
      edge('src/bottom/low.ts', 'src/errors.ts'),
      edge('src/middle/m.ts', 'src/middle/other.ts'),
    ];
    expect(checkLayers(files, edges, rules)).toEqual([]);
  });

  it('reports an upward import, naming both files and levels', () => {
    const problems = checkLayers(files, [edge('src/bottom/low.ts', 'src/middle/m.ts')], rules);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('src/bottom/low.ts imports src/middle/m.ts: an upward import');
    expect(problems[0]).toContain('bottom is at level 4');
  });

  it('reports an import of jobs/ from anywhere but the composition root, even from above', () => {
    const problems = checkLayers(files, [edge('src/middle/m.ts', 'jobs/job.ts')], rules);
    expect(problems.some((problem) => problem.startsWith('src/middle/m.ts imports jobs/job.ts: only src/top may import jobs/'))).toBe(true);
  });

  it('reports a cycle between folders of one level, with the imports that make it', () => {
    const problems = checkLayers(files, [edge('src/middle/m.ts', 'src/beside/b.ts'), edge('src/beside/b.ts', 'src/middle/m.ts')], rules);
    expect(problems).toEqual([
      'folder cycle beside -> middle -> beside: src/beside/b.ts imports src/middle/m.ts; src/middle/m.ts imports src/beside/b.ts',
    ]);
  });

  it('reports a longer cycle once, besides its upward import', () => {
    const problems = checkLayers(
      files,
      [edge('src/top/a.ts', 'src/middle/m.ts'), edge('src/middle/m.ts', 'src/bottom/low.ts'), edge('src/bottom/low.ts', 'src/top/a.ts')],
      rules,
    );
    expect(problems.filter((problem) => problem.startsWith('folder cycle'))).toEqual([
      'folder cycle bottom -> top -> middle -> bottom: src/bottom/low.ts imports src/top/a.ts; src/top/a.ts imports src/middle/m.ts; src/middle/m.ts imports src/bottom/low.ts',
    ]);
    expect(problems.filter((problem) => problem.includes('upward'))).toHaveLength(1);
  });

  it('reports a folder missing from the map, telling where to add it', () => {
    const problems = checkLayers([...files, 'src/metrics/registry.ts', 'src/metrics/http.ts'], [], rules);
    expect(problems).toEqual([
      "src/metrics is not in the layer map: add 'metrics' to LAYERS in scripts/check-layers.ts, at the level of what it imports and what imports it",
    ]);
  });

  it('reports an import from the application into tests or benchmarks', () => {
    expect(checkLayers(files, [edge('src/middle/m.ts', 'test/support/redis.ts')], rules)).toEqual([
      'src/middle/m.ts imports test/support/redis.ts, outside src/ and jobs/: the application must not depend on tests, benchmarks or scripts',
    ]);
  });

  it('reads type-only imports, re-exports and dynamic imports, resolving .js to the .ts source', () => {
    const edges = importEdges(ROOT, ['src/batch/lifecycle.ts']);
    expect(edges).toContainEqual({ from: 'src/batch/lifecycle.ts', to: 'src/clock/clock.ts' }); // `import type`
    expect(edges).toContainEqual({ from: 'src/batch/lifecycle.ts', to: 'src/errors.ts' });
  });

  it('passes on the project itself', () => {
    const tree = sourceFiles(ROOT);
    expect(tree).toContain('jobs/inquiry.ts');
    expect(checkLayers(tree, importEdges(ROOT, tree))).toEqual([]);
  });
});
