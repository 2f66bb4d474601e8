/**
 * Every relative link in the repository's Markdown resolves: the file (or folder) it names exists,
 * and its `#anchor`, if any, is a heading (or an explicit `<a id>`/`<a name>`) of that file, as
 * GitHub renders it. External links (http, https, mailto, …) are not fetched: the tests run
 * without a network. A temp file with a planted broken link proves the check fails.
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Folders that hold no Markdown of ours: installed packages, build output, git's data. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'out', 'coverage', 'scratch', '.git']);

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) markdownFiles(join(dir, entry.name), out);
    } else if (entry.name.endsWith('.md')) {
      out.push(join(dir, entry.name));
    }
  }
  return out;
}

/**
 * The lines outside fenced code blocks (links there are examples, not links); inline code spans
 * dropped too unless `keepCode` (a heading's code is part of its anchor).
 */
function proseOf(markdown: string, keepCode = false): string {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && marker?.startsWith(fence)) fence = null;
    else if (fence !== null) lines.push('');
    else lines.push(keepCode ? line : line.replace(/(`+)[^`]*?\1/g, ''));
  }
  return lines.join('\n');
}

/**
 * GitHub's anchor for a heading (the rule github-slugger implements; that package is not
 * installed here): the heading's text as rendered (links become their text, code and emphasis
 * markers go), lower-cased, every character that is not a letter, digit, space, hyphen or
 * underscore dropped, each space turned into a hyphen. A repeated heading gets `-1`, `-2`, ….
 */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings' slugs and its explicit `<a id|name>`. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOf(markdown, true).split('\n')) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** Link targets: inline links and images `[text](target "title")`, and `[label]: target` definitions. */
function linkTargets(markdown: string): string[] {
  const prose = proseOf(markdown);
  const targets: string[] = [];
  for (const match of prose.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+["'(][^)]*)?\)/g)) {
    targets.push(match[1]!.replace(/^<|>$/g, ''));
  }
  for (const match of prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(\S+)/gm)) targets.push(match[1]!);
  return targets;
}

/** What is wrong with each relative link of `file`, one sentence each (none: all resolve). */
function brokenLinks(file: string, root: string = ROOT): string[] {
  const problems: string[] = [];
  const markdown = readFileSync(file, 'utf8');
  const name = relative(root, file);
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:, …: not fetched
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const linked =
      pathPart === ''
        ? file
        : pathPart.startsWith('/')
          ? join(root, pathPart)
          : resolve(dirname(file), pathPart);
    if (!existsSync(linked)) {
      problems.push(`${name}: ${target}: no file ${relative(root, linked)}`);
      continue;
    }
    if (anchor === undefined || anchor === '' || !linked.endsWith('.md') || statSync(linked).isDirectory()) {
      continue;
    }
    if (!anchorsOf(readFileSync(linked, 'utf8')).has(anchor)) {
      problems.push(`${name}: ${target}: no heading #${anchor} in ${relative(root, linked)}`);
    }
  }
  return problems;
}

describe('links in the Markdown', () => {
  const files = markdownFiles(ROOT);

  it('finds the docs', () => {
    const names = files.map((file) => relative(ROOT, file));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/USER-GUIDE.md']));
  });

  it('every relative link resolves to a file, and every #anchor to a heading of it', () => {
    expect(files.flatMap((file) => brokenLinks(file))).toEqual([]);
  });

  describe('the check itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-links-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('fails on a missing file and a missing heading, passes on good ones', () => {
      writeFileSync(
        join(dir, 'other.md'),
        '# Other page\n\n## Set up: `npm start` (Node 20)\n\n## Twice\n\n## Twice\n\n<a id="kept"></a>\n',
      );
      writeFileSync(
        join(dir, 'page.md'),
        [
          '# Page',
          '',
          'Good: [other](other.md), [a heading](other.md#set-up-npm-start-node-20),',
          '[the second](other.md#twice-1), [explicit](other.md#kept), [here](#page),',
          '[a folder](./), [external](https://example.com/nowhere.md#x) and',
          '`[in code](missing-in-code.md)`.',
          '',
          '```',
          '[in a fence](missing-in-fence.md)',
          '```',
          '',
          'Broken: [gone](missing.md), [no heading](other.md#nowhere), [not here](#nothing).',
          '',
          '[ref]: missing-ref.md',
        ].join('\n'),
      );
      expect(brokenLinks(join(dir, 'page.md'), dir)).toEqual([
        'page.md: missing.md: no file missing.md',
        'page.md: other.md#nowhere: no heading #nowhere in other.md',
        'page.md: #nothing: no heading #nothing in page.md',
        'page.md: missing-ref.md: no file missing-ref.md',
      ]);
      expect(brokenLinks(join(dir, 'other.md'), dir)).toEqual([]);
    });

    it('slugs headings as GitHub does', () => {
      expect(githubSlug('Running and testing')).toBe('running-and-testing');
      expect(githubSlug('Set up')).toBe('set-up');
      expect(githubSlug('What `npm test` runs: the suites (and why)')).toBe(
        'what-npm-test-runs-the-suites-and-why',
      );
      expect(githubSlug('[Natural voices](x.md) & packs')).toBe('natural-voices--packs');
      expect(githubSlug('Messages and languages (English, Vietnamese)')).toBe(
        'messages-and-languages-english-vietnamese',
      );
      expect(githubSlug('Giọng đọc tự nhiên')).toBe('giọng-đọc-tự-nhiên');
    });
  });
});
