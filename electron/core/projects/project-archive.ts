/**
 * A whole project as one zip: `project.json` (settings, cover, cast, chapters, segments with
 * their audio state) and `audio/<audio_key>.wav|.json` for the segment audio files present.
 * Written with the zip writer (platform/zip-writer.ts); read with yauzl under caps (entries,
 * bytes of each entry and in all, inflation per byte). An import gets new ids and is checked
 * whole (the schema, every reference, every audio name): a bad archive is refused with an
 * error naming the file, and nothing of it is kept.
 */

import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { openPromise as openZip, type Entry, type ZipFile } from 'yauzl';
import { BOOK_FORMATS, FOLDER_FORMATS, MASTERING_PRESETS } from '../../shared/book-formats';
import { AppError, isAppError } from '../../shared/errors';
import { CHAPTER_KINDS, MANUSCRIPT_FORMATS } from '../../shared/manuscript';
import { MODEL_IDS } from '../../shared/options';
import { PROJECT_LIMITS, SEGMENT_STATES, type ProjectDetail, type QuoteVoice } from '../../shared/projects';
import { countCharacters } from '../../shared/text';
import { findVoice } from '../../shared/voices';
import { checkFreeSpace } from '../platform/free-space';
import { writeZip, type ZipEntry } from '../platform/zip-writer';
import type { ProjectRow, Store } from '../store';
import { ARCHIVE_AUDIO, timingsCap, timingsProblem, wavCap, wavProblem } from './archive-audio';
import { checkProjectSize, cloneRows, newId, type ProjectService } from './project-service';

const ARCHIVE_FORMAT = 'narration-studio-project';
const ARCHIVE_VERSION = 1;

/**
 * What an archive may hold and unpack to: a project's limits (PROJECT_LIMITS, the manuscript's),
 * and for its audio what its segments can need (ARCHIVE_AUDIO: bytes per ms of their audio).
 */
export const ARCHIVE_LIMITS = {
  /** Bytes of the archive itself (no ZIP64: the writer stops at 4 GiB). */
  fileBytes: 4 * 1024 ** 3,
  /** Entries besides the audio files: project.json and an `audio/` folder entry. */
  fixedEntries: 2,
  /** Files an audio key may have: its WAV and its word timings. */
  filesPerAudio: 2,
  /**
   * Bytes of project.json unpacked: what the largest project needs (200,000 segments of
   * 5,000,000 characters in all, each chapter's text at its last export).
   */
  jsonBytes: 160 * 1024 ** 2,
  /** Bytes unpacked per archive byte (audio barely compresses), past 1 MiB. */
  ratio: 50,
  /** A segment's audio lasts at most this long, ms (4 hours). */
  segmentMs: 4 * 3600 * 1000,
  /** Characters of a segment's flag note and error; bytes of its emphasis, quotes and checks (JSON). */
  noteCharacters: 2000,
  errorCharacters: 4000,
  spansBytes: 1024 ** 2,
  checksBytes: 64 * 1024,
  /** Characters of the last export's record. */
  lastExportCharacters: 64 * 1024,
} as const;

/** Entries an archive of a project with `audioKeys` distinct audio keys may hold. */
const entriesFor = (audioKeys: number) =>
  ARCHIVE_LIMITS.fixedEntries + ARCHIVE_LIMITS.filesPerAudio * audioKeys;

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);
const Id = Type.String({ minLength: 1, maxLength: 64 });
const AudioName = Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' });
const Stamp = Type.String({ maxLength: 40 });

const ArchiveSchema = Type.Object({
  format: Type.Literal(ARCHIVE_FORMAT),
  version: Type.Literal(ARCHIVE_VERSION),
  project: Type.Object({
    title: Type.String({ minLength: 1, maxLength: 500 }),
    author: Nullable(Type.String({ maxLength: 500 })),
    language: Type.String({ minLength: 2, maxLength: 35 }),
    cover_type: Nullable(literals(['image/jpeg', 'image/png'] as const)),
    cover_base64: Nullable(Type.String({ maxLength: 4 * 1024 * 1024 })),
    model_id: literals(MODEL_IDS),
    preset: literals(MASTERING_PRESETS),
    format: literals(BOOK_FORMATS),
    folder_format: Nullable(literals(FOLDER_FORMATS)),
    source_name: Nullable(Type.String({ maxLength: 1000 })),
    source_format: Nullable(literals(MANUSCRIPT_FORMATS)),
    last_export_at: Nullable(Stamp),
    last_export: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.lastExportCharacters })),
  }),
  characters: Type.Array(
    Type.Object({
      id: Id,
      name: Type.String({ minLength: 1, maxLength: 500 }),
      voice_code: Type.String({ maxLength: 200 }),
      speed_rate: Type.Number({ minimum: 0.5, maximum: 2 }),
      pitch_rate: Type.Number({ minimum: 0.5, maximum: 2 }),
      volume: Type.Integer({ minimum: 50, maximum: 150 }),
      narrator: Type.Union([Type.Literal(0), Type.Literal(1)]),
      confirmed: Type.Union([Type.Literal(0), Type.Literal(1)]),
    }),
    { minItems: 1, maxItems: PROJECT_LIMITS.cast },
  ),
  chapters: Type.Array(
    Type.Object({
      id: Id,
      title: Type.String({ minLength: 1, maxLength: 1000 }),
      kind: literals(CHAPTER_KINDS),
      included: Type.Union([Type.Literal(0), Type.Literal(1)]),
      exported_text: Nullable(Type.String()),
    }),
    { maxItems: PROJECT_LIMITS.chapters },
  ),
  segments: Type.Array(
    Type.Object({
      id: Id,
      chapter_id: Id,
      text: Type.String({ minLength: 1 }),
      emphasis: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.spansBytes })),
      speaker: Nullable(Id),
      quotes: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.spansBytes })),
      suggested_speaker: Nullable(Id),
      state: literals(SEGMENT_STATES),
      audio_key: Nullable(AudioName),
      duration_ms: Nullable(Type.Integer({ minimum: 0, maximum: ARCHIVE_LIMITS.segmentMs })),
      error: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.errorCharacters })),
      flag_note: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.noteCharacters })),
      checks: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.checksBytes })),
      rendered_at: Nullable(Stamp),
    }),
    { maxItems: PROJECT_LIMITS.segments },
  ),
});
type Archive = Static<typeof ArchiveSchema>;

const SpansSchema = Type.Array(
  Type.Object(
    { start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) },
    { additionalProperties: true },
  ),
);

/**
 * Writes the project's archive to `outPath` (staged: nothing is left on failure). Returns the
 * file name to offer: `<title>.narration.zip`.
 */
export async function writeProjectArchive(
  store: Store,
  service: ProjectService,
  keyId: string,
  projectId: string,
  outPath: string,
): Promise<{ fileName: string }> {
  const project = await service.owned(keyId, projectId);
  const [chapters, characters, segments] = await Promise.all([
    store.projects.chapters(project.id),
    store.projects.characters(project.id),
    store.projects.segments(project.id),
  ]);
  const order = new Map(chapters.map((c) => [c.id, c.position]));
  segments.sort((a, b) => order.get(a.chapter_id)! - order.get(b.chapter_id)! || a.position - b.position);
  const archive: Archive = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    project: {
      title: project.title,
      author: project.author,
      language: project.language,
      cover_type: project.cover_type as 'image/jpeg' | 'image/png' | null,
      cover_base64: project.cover_base64,
      model_id: project.model_id,
      preset: project.preset,
      format: project.format,
      folder_format: project.folder_format,
      source_name: project.source_name,
      source_format: project.source_format,
      last_export_at: project.last_export_at,
      last_export: project.last_export,
    },
    characters: characters.map(({ project_id: _p, ...c }) => ({
      ...c,
      narrator: c.narrator ? 1 : 0,
      confirmed: c.confirmed ? 1 : 0,
    })),
    chapters: chapters.map(({ project_id: _p, position: _o, ...c }) => ({
      ...c,
      included: c.included ? 1 : 0,
    })),
    segments: segments.map(({ project_id: _p, position: _o, ...s }) => s),
  };
  const staging = await mkdtemp(join(tmpdir(), 'project-archive-'));
  try {
    const json = join(staging, 'project.json');
    await writeFile(json, JSON.stringify(archive));
    const entries: ZipEntry[] = [{ path: json, name: 'project.json' }];
    const dir = service.audioDir(project.id);
    const present = new Set(await readdir(dir).catch(() => [] as string[]));
    const keys = new Set(segments.map((s) => s.audio_key).filter((k): k is string => k !== null));
    for (const key of [...keys].sort()) {
      for (const ending of ['.wav', '.json']) {
        if (present.has(key + ending))
          entries.push({ path: join(dir, key + ending), name: `audio/${key}${ending}` });
      }
    }
    await writeZip(outPath, entries);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { fileName: `${safeFileName(project.title)}.narration.zip` };
}

/** An audio entry of an archive: `audio/<key>.wav` or `audio/<key>.json`. */
interface AudioEntry {
  entry: Entry;
  key: string;
  kind: 'wav' | 'json';
}

/**
 * Makes a new project of `keyId` from an archive file (new ids; audio files into its folder).
 * Nothing is written before the archive is known good as far as its directory and project.json
 * tell: its entries are listed (the zip's central directory, no data read), project.json is read
 * under its cap and checked whole (shape, references, the project limits), every audio entry must
 * belong to a segment and be no larger than that segment's audio can be, and the disk must have
 * room for them all; then each audio file is checked as it is unpacked (a WAV of the project's
 * format as long as its segment). Refuses a bad archive whole with MANUSCRIPT_INVALID,
 * MANUSCRIPT_TOO_LARGE or INSUFFICIENT_STORAGE naming `fileName`; nothing of it is kept.
 */
export async function readProjectArchive(
  service: ProjectService,
  keyId: string,
  path: string,
  fileName: string,
  archiveBytes: number,
): Promise<ProjectDetail> {
  const invalid = (why: string, cause?: unknown) =>
    new AppError(
      'MANUSCRIPT_INVALID',
      `"${fileName}" is not a project archive we can import: ${why}.`,
      { file: fileName },
      { cause },
    );
  const projectId = newId();
  const dir = service.audioDir(projectId);
  let zip: ZipFile | undefined;
  try {
    try {
      zip = await openZip(path, {
        lazyEntries: true,
        autoClose: false,
        strictFileNames: true,
        validateEntrySizes: true,
      });
    } catch (error) {
      throw invalid((error as Error).message, error);
    }
    const most = entriesFor(PROJECT_LIMITS.segments);
    if (zip.entryCount > most) throw invalid(`it holds ${zip.entryCount} entries, at most ${most}`);

    // 1. The directory: names only, no data read.
    let jsonEntry: Entry | undefined;
    const audio = new Map<string, AudioEntry>();
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name === 'audio/') continue;
      if (entry.isEncrypted()) throw invalid(`"${name}" is encrypted`);
      if (name === 'project.json') {
        if (jsonEntry) throw invalid('it holds project.json twice');
        jsonEntry = entry;
        continue;
      }
      const match = /^audio\/([A-Za-z0-9_-]{1,128})\.(wav|json)$/.exec(name);
      if (!match) throw invalid(`it holds "${name}", which is neither project.json nor a segment's audio`);
      if (audio.has(name)) throw invalid(`it holds "${name}" twice`);
      audio.set(name, { entry, key: match[1]!, kind: match[2] as 'wav' | 'json' });
    }
    if (!jsonEntry) throw invalid('it has no project.json');

    // 2. project.json, read under its cap and checked whole.
    const total = { bytes: 0 };
    const inflationCap = Math.max(1024 ** 2, archiveBytes * ARCHIVE_LIMITS.ratio);
    const counter = (limit: number, what: string) => {
      let seen = 0;
      return new Transform({
        transform(chunk: Buffer, _e, callback) {
          seen += chunk.length;
          total.bytes += chunk.length;
          if (seen > limit) callback(invalid(`${what} unpacks to more than ${limit} bytes`));
          else if (total.bytes > inflationCap)
            callback(invalid(`it unpacks to more than ${inflationCap} bytes (a zip bomb?)`));
          else callback(null, chunk);
        },
      });
    };
    if (jsonEntry.uncompressedSize > ARCHIVE_LIMITS.jsonBytes)
      throw tooLarge(
        fileName,
        `its project.json unpacks to ${jsonEntry.uncompressedSize} bytes`,
        ARCHIVE_LIMITS.jsonBytes,
        'bytes of project.json',
      );
    const chunks: Buffer[] = [];
    await pipeline(
      await zip.openReadStreamPromise(jsonEntry),
      counter(ARCHIVE_LIMITS.jsonBytes, 'project.json'),
      async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) chunks.push(chunk);
      },
    );
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch (error) {
      throw invalid(`project.json is not JSON (${(error as Error).message})`, error);
    }
    chunks.length = 0;
    const archive = checkArchive(parsed, fileName, invalid);

    // 3. The audio entries against what the segments can need, and the disk's room for them.
    const needs = new Map<string, { durations: number[]; characters: number }>();
    for (const s of archive.segments) {
      if (s.audio_key === null) continue;
      const need = needs.get(s.audio_key) ?? { durations: [], characters: 0 };
      if (s.duration_ms !== null) need.durations.push(s.duration_ms);
      need.characters = Math.max(need.characters, countCharacters(s.text));
      needs.set(s.audio_key, need);
    }
    const needed = entriesFor(needs.size);
    if (zip.entryCount > needed) {
      throw invalid(
        `it holds ${zip.entryCount} entries where its ${needs.size} audio files need at most ${needed}`,
      );
    }
    let audioBytes = 0;
    for (const [name, { entry, key, kind }] of audio) {
      const need = needs.get(key);
      if (!need) throw invalid(`${name} belongs to no segment`);
      if (kind === 'json' && !audio.has(`audio/${key}.wav`)) throw invalid(`${name} has no audio/${key}.wav`);
      if (kind === 'wav' && need.durations.length === 0)
        throw invalid(`${name} belongs to segments without a duration`);
      const cap = kind === 'wav' ? wavCap(Math.max(...need.durations)) : timingsCap(need.characters);
      if (entry.uncompressedSize > cap) {
        throw invalid(
          kind === 'wav'
            ? `${name} unpacks to ${entry.uncompressedSize} bytes where ${Math.max(...need.durations)} ms of a segment's audio take at most ${cap}`
            : `${name} unpacks to ${entry.uncompressedSize} bytes where the timings of its segment take at most ${cap}`,
        );
      }
      audioBytes += entry.uncompressedSize;
    }
    if (audioBytes + jsonEntry.uncompressedSize > inflationCap)
      throw invalid(`it unpacks to more than ${inflationCap} bytes (a zip bomb?)`);
    // Each entry's first bytes: a WAV's header, a timings file whole.
    const durations = new Map([...needs].map(([key, need]) => [key, need.durations]));
    for (const [name, { entry, key, kind }] of audio) {
      const size = entry.uncompressedSize;
      const head = await readHead(
        zip,
        entry,
        kind === 'wav' ? Math.min(size, ARCHIVE_AUDIO.headerBytes) : size,
      );
      const problem = kind === 'wav' ? wavProblem(head, size, durations.get(key)!) : timingsProblem(head);
      if (problem) {
        throw invalid(
          `${name} is not ${kind === 'wav' ? "its segment's audio" : 'word timings'}: ${problem}`,
        );
      }
    }
    await checkFreeSpace(dir, audioBytes, `"${fileName}"`);

    // 4. Only now anything is written: the audio files, each no longer than its entry said.
    if (audio.size > 0) await mkdir(dir, { recursive: true });
    for (const [name, { entry, key, kind }] of audio) {
      await pipeline(
        await zip.openReadStreamPromise(entry),
        counter(entry.uncompressedSize, name),
        createWriteStream(join(dir, `${key}.${kind}`), { flags: 'wx' }),
      );
    }

    const positions = new Map<string, number>();
    const project: ProjectRow = {
      seq: 0,
      id: projectId,
      key_id: keyId,
      ...archive.project,
      history_position: 0,
      created_at: '',
      updated_at: '',
    };
    const copy = cloneRows(
      project,
      archive.chapters.map((c, position) => ({ ...c, project_id: projectId, position })),
      archive.characters.map((c) => ({ ...c, project_id: projectId })),
      archive.segments.map((s) => {
        const position = positions.get(s.chapter_id) ?? 0;
        positions.set(s.chapter_id, position + 1);
        // Audio the archive does not carry is not there: such a segment is to render again.
        const audioKept = s.audio_key !== null && audio.has(`audio/${s.audio_key}.wav`);
        const state = audioKept ? s.state : 'not_rendered';
        const busy = state === 'queued' || state === 'rendering';
        return {
          ...s,
          project_id: projectId,
          position,
          state: busy ? (audioKept ? 'changed' : 'not_rendered') : state,
          ...(audioKept ? {} : { audio_key: null, duration_ms: null, checks: null, rendered_at: null }),
        };
      }),
    );
    return await service.saveClone(copy, new Date().toISOString());
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (isAppError(error)) throw error;
    throw invalid((error as Error).message, error);
  } finally {
    zip?.close();
  }
}

/** The first `bytes` of an entry unpacked (the rest is not read). */
async function readHead(zip: ZipFile, entry: Entry, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let seen = 0;
  const stream = await zip.openReadStreamPromise(entry);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      seen += chunk.length;
      if (seen >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}

/** MANUSCRIPT_TOO_LARGE naming the archive, what it holds and the limit. */
function tooLarge(fileName: string, holds: string, limit: number, what: string): AppError {
  return new AppError(
    'MANUSCRIPT_TOO_LARGE',
    `"${fileName}" is too large to import: ${holds}; a project holds at most ${limit} ${what}.`,
    { file: fileName, limit: what, limit_value: limit },
  );
}

/** The archive's JSON checked whole: its shape, then every reference inside it. */
function checkArchive(value: unknown, fileName: string, invalid: (why: string) => AppError): Archive {
  // The project's size first, before every segment is looked at.
  const lists = value as { chapters?: unknown; segments?: unknown; characters?: unknown } | null;
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  checkProjectSize(
    {
      chapters: count(lists?.chapters),
      segments: count(lists?.segments),
      characters: 0,
      cast: count(lists?.characters),
    },
    fileName,
  );
  if (!Value.Check(ArchiveSchema, value)) {
    const first = Value.Errors(ArchiveSchema, value).First();
    throw invalid(`project.json ${first ? `${first.path || '/'}: ${first.message}` : 'is not a project'}`);
  }
  const archive = value;
  const unique = (ids: string[], what: string) => {
    if (new Set(ids).size !== ids.length) throw invalid(`two ${what} share an id`);
    return new Set(ids);
  };
  const characters = unique(
    archive.characters.map((c) => c.id),
    'characters',
  );
  const chapters = unique(
    archive.chapters.map((c) => c.id),
    'chapters',
  );
  unique(
    archive.segments.map((s) => s.id),
    'segments',
  );
  if (archive.characters.filter((c) => c.narrator === 1).length !== 1)
    throw invalid('it must have exactly one narrator');
  for (const c of archive.characters) {
    if (!findVoice(c.voice_code))
      throw invalid(`character "${c.name}" has an unknown voice "${c.voice_code}"`);
  }
  if (archive.project.cover_base64 !== null && archive.project.cover_type === null)
    throw invalid('its cover has no type');
  let textCharacters = 0;
  for (const s of archive.segments) {
    const where = `segment "${s.id}"`;
    if (!chapters.has(s.chapter_id)) throw invalid(`${where} is in no chapter`);
    for (const ref of [s.speaker, s.suggested_speaker]) {
      if (ref !== null && !characters.has(ref))
        throw invalid(`${where} names a character that is not in the cast`);
    }
    const length = countCharacters(s.text);
    if (length > PROJECT_LIMITS.segmentCharacters) {
      throw tooLarge(
        fileName,
        `${where} has ${length} characters`,
        PROJECT_LIMITS.segmentCharacters,
        'characters in a segment',
      );
    }
    textCharacters += length;
    for (const [field, text] of [
      ['emphasis', s.emphasis],
      ['quotes', s.quotes],
    ] as const) {
      if (text === null) continue;
      let spans: unknown;
      try {
        spans = JSON.parse(text);
      } catch {
        throw invalid(`${where} has ${field} that is not JSON`);
      }
      if (!Value.Check(SpansSchema, spans)) throw invalid(`${where} has malformed ${field}`);
      for (const span of spans) {
        if (span.end <= span.start || span.end > length)
          throw invalid(`${where} has ${field} outside its text`);
        if (field === 'quotes' && !characters.has((span as unknown as QuoteVoice).character_id)) {
          throw invalid(`${where} has a quote read by a character that is not in the cast`);
        }
      }
    }
    if (s.checks !== null) {
      try {
        if (!Array.isArray(JSON.parse(s.checks))) throw new Error('not a list');
      } catch {
        throw invalid(`${where} has malformed checks`);
      }
    }
  }
  checkProjectSize(
    { chapters: archive.chapters.length, segments: archive.segments.length, characters: textCharacters },
    fileName,
  );
  // A chapter's text at its last export is its segments' texts then, with blank lines between.
  const exported = archive.chapters.reduce(
    (n, c) => n + (c.exported_text === null ? 0 : countCharacters(c.exported_text)),
    0,
  );
  const exportedLimit = PROJECT_LIMITS.characters + 2 * PROJECT_LIMITS.segments;
  if (exported > exportedLimit) {
    throw tooLarge(
      fileName,
      `its chapters' texts at their last export hold ${exported} characters`,
      exportedLimit,
      'characters of text at an export',
    );
  }
  return archive;
}

/** A title as a file name: no path separators or characters file systems refuse. */
function safeFileName(title: string): string {
  const name = title
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return name.slice(0, 120) || 'project';
}
