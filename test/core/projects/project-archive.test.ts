// test-tier: slow (readProjectArchive reads each archive in a child process)
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../electron/core/engine/audio/wav';
import { writeZip } from '../../../electron/core/platform/zip-writer';
import { readProjectArchive, writeProjectArchive } from '../../../electron/core/projects/project-archive';
import { createProjectService, type ProjectService } from '../../../electron/core/projects/project-service';
import { withSegments, type FullDetail } from '../../fixtures/project-detail';
import { openTestStore, type TestStore } from '../../fixtures/test-store';
import { BOOK } from '../../fixtures/project-books';

const key = (id: string) => ({
  id,
  name: id,
  key_hash: id.padEnd(64, 'x'),
  key_prefix: 'nsk_abc',
  prefix_hash: null,
  signing_secret: 'whsec_x',
  balance_milli: 5000,
  queued: 0,
  created_at: '2025-01-01T00:00:00.000Z',
  revoked_at: null,
});

/** A project's content with ids replaced by names and order: equal across copies. */
function shape(d: FullDetail) {
  const names = new Map(d.characters.map((c) => [c.id, c.name]));
  const { id: _i, created_at: _c, updated_at: _u, can_undo: _cu, can_redo: _cr, ...project } = d.project;
  return {
    project,
    characters: d.characters.map(({ id: _id, ...c }) => c),
    chapters: d.chapters.map(({ id: _id, segments, ...c }) => ({
      ...c,
      segments: segments.map(({ id: _s, chapter_id: _ch, speaker, suggested_speaker, quotes, ...s }) => ({
        ...s,
        speaker: speaker && names.get(speaker),
        suggested_speaker: suggested_speaker && names.get(suggested_speaker),
        quotes: quotes.map((q) => ({ ...q, character_id: names.get(q.character_id) })),
      })),
    })),
  };
}

describe('project archive', () => {
  let t: TestStore;
  let service: ProjectService;
  beforeEach(async () => {
    t = await openTestStore();
    await t.store.keys.insert(key('key_a'));
    await t.store.keys.insert(key('key_b'));
    service = createProjectService({ store: t.store, filesDir: join(t.dir, 'files') });
  });
  afterEach(async () => {
    await t.close();
  });

  it('round-trips a project with its audio into new ids, for another key', async () => {
    const made = await withSegments(
      service,
      'key_a',
      service.createFromManuscript('key_a', {
        ...BOOK,
        cover: { type: 'image/png', base64: 'iVBORw0KGgoAAAAN' },
      }),
    );
    const id = made.project.id;
    await service.applySuggestions('key_a', id);
    const first = made.chapters[1]!.segments[0]!;
    const audioKey = 'a'.repeat(64);
    const row = (await t.store.projects.getSegment(first.id))!;
    await t.store.projects.putSegments([{ ...row, state: 'done', audio_key: audioKey, duration_ms: 1234 }]);
    mkdirSync(service.audioDir(id), { recursive: true });
    // A real WAV of the project's format, as long as its segment says (1234 ms at 22.05 kHz).
    const wav = encodeWav(new Int16Array(Math.round(22.05 * 1234)).fill(900), 22050);
    writeFileSync(join(service.audioDir(id), `${audioKey}.wav`), wav);
    writeFileSync(join(service.audioDir(id), `${audioKey}.json`), '[]');
    await service.markExported(id, [made.chapters[1]!.id]);
    const source = await withSegments(service, 'key_a', service.detail('key_a', id));

    const zip = join(t.dir, 'book.zip');
    const { fileName } = await writeProjectArchive(t.store, service, 'key_a', id, zip);
    expect(fileName).toBe('Ngọn hải đăng.narration.zip');
    const imported = await withSegments(
      service,
      'key_b',
      readProjectArchive(service, 'key_b', zip, fileName, statSync(zip).size),
    );
    expect(imported.project.id).not.toBe(id);
    expect(shape(imported)).toEqual(shape(source));
    expect(readdirSync(service.audioDir(imported.project.id)).sort()).toEqual([
      `${audioKey}.json`,
      `${audioKey}.wav`,
    ]);
    expect(readFileSync(join(service.audioDir(imported.project.id), `${audioKey}.wav`)).equals(wav)).toBe(
      true,
    );
    expect((await service.list('key_b')).items).toHaveLength(1);
    await expect(writeProjectArchive(t.store, service, 'key_b', id, zip)).rejects.toMatchObject({
      code: 'PROJECT_NOT_FOUND',
    });
  });

  it('refuses a bad archive whole, naming the file, and keeps nothing of it', async () => {
    const made = await service.createFromManuscript('key_a', BOOK);
    const good = join(t.dir, 'good.zip');
    await writeProjectArchive(t.store, service, 'key_a', made.project.id, good);
    const bad = async (name: string, files: Record<string, string>) => {
      const dir = join(t.dir, name);
      mkdirSync(dir, { recursive: true });
      const entries = Object.entries(files).map(([entry, text], i) => {
        const path = join(dir, `f${i}`);
        writeFileSync(path, text);
        return { path, name: entry };
      });
      const zip = join(t.dir, `${name}.zip`);
      await writeZip(zip, entries);
      return zip;
    };
    // A valid project.json from a real archive, to break one thing at a time.
    const { openPromise } = await import('yauzl');
    const zipfile = await openPromise(good, { lazyEntries: true, autoClose: false });
    let text = '';
    for await (const entry of zipfile.eachEntry()) {
      if (entry.fileName !== 'project.json') continue;
      const chunks: Buffer[] = [];
      for await (const chunk of await zipfile.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      text = Buffer.concat(chunks).toString('utf8');
    }
    zipfile.close();
    const valid = JSON.parse(text) as {
      segments: { speaker: string | null; quotes: string | null; text: string }[];
      characters: { voice_code: string }[];
    };
    const cases: [string, Record<string, string>, RegExp][] = [
      ['no-json', { 'readme.txt': 'hi' }, /neither project\.json/],
      ['not-json', { 'project.json': '{' }, /not JSON/],
      ['wrong-shape', { 'project.json': JSON.stringify({ ...valid, version: 9 }) }, /version/],
      [
        'dangling-speaker',
        {
          'project.json': JSON.stringify({
            ...valid,
            segments: valid.segments.map((s) => ({ ...s, speaker: 'ghost' })),
          }),
        },
        /not in the cast/,
      ],
      [
        'quote-outside',
        {
          'project.json': JSON.stringify({
            ...valid,
            segments: valid.segments.map((s, i) =>
              i === 0 ? { ...s, quotes: JSON.stringify([{ start: 0, end: 999, character_id: 'x' }]) } : s,
            ),
          }),
        },
        /outside its text/,
      ],
      [
        'stray-audio',
        { 'project.json': text, [`audio/${'b'.repeat(64)}.wav`]: 'RIFF' },
        /belongs to no segment/,
      ],
      ['path-escape', { 'project.json': text, '../evil.wav': 'x' }, /not a project archive/],
    ];
    const before = (await service.list('key_b')).items.length;
    for (const [name, files, message] of cases) {
      const zip = await bad(name, files);
      const error = await readProjectArchive(service, 'key_b', zip, `${name}.zip`, statSync(zip).size).catch(
        (e: unknown) => e,
      );
      expect(error, name).toMatchObject({ code: 'MANUSCRIPT_INVALID' });
      expect((error as Error).message, name).toMatch(message);
      expect((error as Error).message, name).toContain(`"${name}.zip"`);
    }
    const notZip = join(t.dir, 'plain.zip');
    writeFileSync(notZip, 'not a zip at all');
    await expect(readProjectArchive(service, 'key_b', notZip, 'plain.zip', 16)).rejects.toMatchObject({
      code: 'MANUSCRIPT_INVALID',
    });
    expect((await service.list('key_b')).items.length).toBe(before);
    const projectsDir = join(t.dir, 'files', 'projects');
    const dirs = existsSync(projectsDir) ? readdirSync(projectsDir) : [];
    // Only the good import above may have a folder (it has no audio, so none).
    expect(dirs).toEqual([]);
  });
});
