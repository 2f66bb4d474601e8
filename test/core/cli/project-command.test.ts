/**
 * `project import | list | show | edit | delete` run as the CLI runs them (in this
 * process: test/fixtures/project-cli.ts) on a data directory, and on a PostgreSQL database on the PostgreSQL run: a real
 * DOCX written by the fixtures' writer, JSON on stdout, errors on one line.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VIETNAMESE_BOOK, writeDocx } from '../../fixtures/manuscripts';
import { useProjectCli } from '../../fixtures/project-cli';

const root = new URL('../../../', import.meta.url).pathname;
const cli = useProjectCli('project-cli-');
const { dir } = cli;
const project = cli.run;

beforeAll(async () => {
  writeFileSync(join(dir, 'Truyện Kiều.docx'), await writeDocx(VIETNAMESE_BOOK));
});

describe('project (headless CLI)', () => {
  it('imports a DOCX, lists, shows and edits it', async () => {
    const imported = await project(
      'import',
      join(dir, 'Truyện Kiều.docx'),
      '--title',
      'Kiều',
      '--voice',
      'vi_female_hacuc_mb',
    );
    expect(imported.stderr).toContain('warning: 1 note ');
    expect(imported.stderr).not.toContain('error:');
    expect(imported.code).toBe(0);
    const made = JSON.parse(imported.stdout) as {
      id: string;
      title: string;
      language_choice: unknown;
      chapters: { id: string; title: string; included: boolean; segments: number }[];
    };
    expect(made.title).toBe('Kiều');
    expect(made.language_choice).toEqual({ language: 'vi', source: 'text', metadata: 'vi', detected: 'vi' });
    expect(made.id).toMatch(/^[0-9a-f]{32}$/);
    // (DOCX has no front or back matter of its own: what it marks is the reader's, tested there.)
    expect(made.chapters.map((c) => [c.title, c.segments])).toEqual([
      ['Bản quyền', 1],
      ['Chương 1: Trăm năm', 3],
      ['Chương 2: Thanh minh', 2],
      ['Chương 3: Gặp gỡ', 1],
      ['Lời cảm ơn', 1],
    ]);
    expect(made.chapters.slice(1, 4).every((c) => c.included)).toBe(true);

    type List = { items: { id: string; segment_count: number }[]; next_cursor: string | null; total: number };
    const list = JSON.parse((await project('list')).stdout) as List;
    expect(list.items.map((p) => [p.id, p.segment_count])).toEqual([[made.id, 8]]);
    expect(list).toMatchObject({ next_cursor: null, total: 1 });

    const shown = JSON.parse((await project('show', made.id)).stdout) as {
      characters: { voice_code: string; narrator: boolean }[];
      chapters: { id: string; segment_count: number; segments?: unknown }[];
    };
    expect(shown.characters[0]).toMatchObject({ narrator: true, voice_code: 'vi_female_hacuc_mb' });
    expect(shown.chapters[1]).toMatchObject({ id: made.chapters[1]!.id, segment_count: 3 });
    expect(shown.chapters[1]!.segments).toBeUndefined();
    type Page = {
      chapter_id: string;
      items: { id: string; text: string; speaker: string | null; state: string }[];
      offset: number;
      limit: number;
      total: number;
    };
    const chapter = made.chapters[1]!.id;
    const page = JSON.parse((await project('show', made.id, '--chapter', chapter)).stdout) as Page;
    expect(page).toMatchObject({ chapter_id: chapter, offset: 0, limit: 100, total: 3 });
    const segment = page.items[0]!;
    expect(segment).toEqual({
      id: segment.id,
      text: 'Trăm năm trong cõi người ta, chữ tài chữ mệnh khéo là ghét nhau.',
      speaker: null,
      state: 'not_rendered',
    });

    const edited = await project(
      'edit',
      made.id,
      '--segment',
      segment.id,
      '--text',
      'Trăm năm trong cõi người ta.',
    );
    expect(edited.code).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({
      id: segment.id,
      text: 'Trăm năm trong cõi người ta.',
      state: 'not_rendered',
    });
    const again = JSON.parse(
      (await project('show', made.id, '--chapter', chapter, '--offset', '0', '--limit', '1')).stdout,
    ) as Page;
    expect(again.items.map((s) => s.text)).toEqual(['Trăm năm trong cõi người ta.']);
    const later = JSON.parse(
      (await project('show', made.id, '--chapter', chapter, '--offset', '2')).stdout,
    ) as Page;
    expect(later).toMatchObject({ offset: 2, total: 3 });
    expect(later.items).toHaveLength(1);
    const tooMany = await project('show', made.id, '--chapter', chapter, '--limit', '501');
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('--limit must be a whole number from 1 to 500');

    // A second book: the list pages, newest first, a page of one at a time.
    const second = (
      JSON.parse((await project('import', join(dir, 'Truyện Kiều.docx'))).stdout) as { id: string }
    ).id;
    const newest = JSON.parse((await project('list', '--limit', '1')).stdout) as List;
    expect(newest.items.map((p) => p.id)).toEqual([second]);
    expect(newest.total).toBe(2);
    expect(newest.next_cursor).toEqual(expect.any(String));
    const older = JSON.parse(
      (await project('list', '--limit', '1', '--cursor', newest.next_cursor!)).stdout,
    ) as List;
    expect(older).toMatchObject({ items: [{ id: made.id }], next_cursor: null, total: 2 });
    const wide = await project('list', '--limit', '101');
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain('--limit must be a whole number from 1 to 100');
    const badCursor = await project('list', '--cursor', 'nope');
    expect(badCursor.code).not.toBe(0);
    expect(badCursor.stderr).toContain('cursor must be a next_cursor of this list');

    expect(JSON.parse((await project('delete', second)).stdout)).toEqual({
      project_id: second,
      removed: true,
    });
    expect(JSON.parse((await project('delete', made.id)).stdout)).toEqual({
      project_id: made.id,
      removed: true,
    });
    expect(JSON.parse((await project('list')).stdout)).toEqual({ items: [], next_cursor: null, total: 0 });
  });

  it('prints errors on one line, usage errors with the usage', async () => {
    const missing = await project('import', join(dir, 'nope.docx'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: "nope\.docx" cannot be opened: .*\n$/);
    writeFileSync(join(dir, 'broken.docx'), 'PK\u0003\u0004 broken');
    const broken = await project('import', join(dir, 'broken.docx'));
    expect(broken.code).toBe(1);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toContain('broken.docx');
    const unknown = await project('show', '0'.repeat(32));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`error: No project "${'0'.repeat(32)}" for this API key.\n`);
    const usage = await project('edit', '0'.repeat(32));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('project edit needs --segment');
    expect(usage.stderr).toContain('Usage: project');
    expect((await project('frobnicate')).code).toBe(2);
  });

  it('import --notes keeps the notes (pandoc notes.docx: an appendix "Notes"); another value is a usage error', async () => {
    const file = join(root, 'test/fixtures/real-manuscripts/pandoc-docx-notes.docx');
    const kept = await project('import', file, '--notes', 'appendix');
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).not.toContain('note');
    const made = JSON.parse(kept.stdout) as { chapters: { title: string; segments: number }[] };
    expect(made.chapters.map((c) => c.title)).toEqual(['Opening', 'Notes']);
    const warned = await project('import', file);
    expect(warned.stderr).toContain('--notes on the command line');
    const bad = await project('import', file, '--notes', 'footer');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--notes must be one of omit, inline, appendix');
  });
});
