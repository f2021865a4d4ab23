import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`), spaces as `-`. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(path: string): Set<string> {
  const text = readFileSync(join(root, path), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((match) => anchor(match[1]!)));
}

/** Every `[text](target)` outside code blocks whose target is not an absolute address. */
function relativeLinks(path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('the documentation', () => {
  it('has a README of at most 250 lines: a front door, the rest in docs/', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(pages)('%s: every relative link names a file that exists, and a heading in it', (page) => {
    const broken: string[] = [];
    for (const target of relativeLinks(page)) {
      const [file, fragment] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : relative(root, join(root, dirname(page), file));
      if (!existsSync(join(root, resolved))) broken.push(`${target}: no file ${resolved}`);
      else if (fragment !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment))
        broken.push(`${target}: no heading #${fragment} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s: every example calls the command as it is after `npm ci` (npx beneficiary-check ...)', (page) => {
    const bare = readFileSync(join(root, page), 'utf8')
      .split('\n')
      .filter((line) =>
        /(?<![\w./-])(?<!npx )beneficiary-check (run|enqueue|worker|export|resume|status|prune|delete|serve|review|decisions|watch|schedule|sandbox)\b/.test(
          line,
        ),
      )
      .filter((line) => !line.includes('forked from the same CLI'));
    expect(bare).toEqual([]);
  });
});
