/**
 * A project archive read, checked and unpacked, in the archive reader's child process
 * (project-archive-child.ts; project-archive.ts starts it in its turn among the readers, under
 * ARCHIVE_LIMITS' time and memory limits). Nothing is unpacked before the archive is known good
 * as far as its directory and project.json tell: its entries are listed (the zip's central
 * directory, no data read), project.json is read under its cap, its nesting looked at, and it is
 * checked whole (shape, references, the project limits), every audio entry must belong to a
 * segment and be no larger than that segment's audio can be, each audio entry's first bytes must
 * be a WAV of the project's format as long as its segment (or word timings), and the disk must
 * have room for them all; then the audio is unpacked into the staging folder the parent gave. The
 * answer is the project's rows under new ids, its segments sent in parts of
 * ARCHIVE_LIMITS.segmentsPerPart so the parent never decodes one huge message.
 */

import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Value } from '@sinclair/typebox/value';
import { openPromise as openZip, type Entry, type ZipFile } from 'yauzl';
import { AppError, isAppError } from '../../shared/errors';
import { PROJECT_LIMITS, type QuoteVoice } from '../../shared/projects';
import { countCharacters } from '../../shared/text';
import { findVoice } from '../../shared/voices';
import type { SendPart } from '../manuscripts';
import { checkFreeSpace } from '../platform/free-space';
import { ARCHIVE_AUDIO, timingsCap, timingsProblem, wavCap, wavProblem } from './archive-audio';
import { ARCHIVE_LIMITS, ArchiveSchema, entriesFor, SpansSchema, type Archive } from './archive-format';
import { cloneRows, type ClonedProject } from './project-rows';
import { checkProjectSize } from './project-size';

/** What the parent asks: the archive's path, its name and size, and where to unpack its audio. */
export interface ArchiveReadRequest {
  path: string;
  fileName: string;
  archiveBytes: number;
  /** The new project's id and its key (its rows carry them). */
  projectId: string;
  keyId: string;
  /** The staging folder: the audio goes to its `audio/` folder. */
  stagingDir: string;
}

/** What the child answers besides its parts (each a list of segment rows): the project's rows under new ids. */
export interface ArchiveRead extends Omit<ClonedProject, 'segments'> {
  /** Segment rows sent in parts. */
  segments: number;
  /** Whether `<stagingDir>/audio` holds audio files. */
  audio: boolean;
}

/** An audio entry of an archive: `audio/<key>.wav` or `audio/<key>.json`. */
interface AudioEntry {
  entry: Entry;
  key: string;
  kind: 'wav' | 'json';
}

/**
 * Reads, checks and unpacks the archive of `request` (see the top of this file), sending its
 * segment rows with `sendPart`. Refuses a bad archive whole with MANUSCRIPT_INVALID,
 * MANUSCRIPT_TOO_LARGE or INSUFFICIENT_STORAGE naming the file.
 */
export async function readArchive(
  { path, fileName, archiveBytes, projectId, keyId, stagingDir }: ArchiveReadRequest,
  sendPart: SendPart,
): Promise<ArchiveRead> {
  const invalid = (why: string, cause?: unknown) =>
    new AppError(
      'MANUSCRIPT_INVALID',
      `"${fileName}" is not a project archive we can import: ${why}.`,
      { file: fileName },
      { cause },
    );
  const dir = join(stagingDir, 'audio');
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
    const json = Buffer.concat(chunks);
    chunks.length = 0;
    // Nesting is refused before it is parsed: 80 million brackets (160 MiB, a zip of 160 kB) are gigabytes of arrays.
    if (nestingOver(json, ARCHIVE_LIMITS.jsonDepth))
      throw invalid(`project.json nests values more than ${ARCHIVE_LIMITS.jsonDepth} deep`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(json.toString('utf8'));
    } catch (error) {
      throw invalid(`project.json is not JSON (${(error as Error).message})`, error);
    }
    const archive = checkArchive(parsed, fileName, invalid);

    // 3. The audio entries against what the segments can need, and the disk's room for them.
    const needs = audioNeeds(archive.segments);
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

    // 4. Only now anything is written, in the staging folder: the audio files, each no longer than its entry said.
    if (audio.size > 0) await mkdir(dir, { recursive: true });
    for (const [name, { entry, key, kind }] of audio) {
      await pipeline(
        await zip.openReadStreamPromise(entry),
        counter(entry.uncompressedSize, name),
        createWriteStream(join(dir, `${key}.${kind}`), { flags: 'wx' }),
      );
    }

    // 5. The rows under new ids: positions in their chapters, and audio the archive does not carry is not there.
    const copy = archiveRows(archive, projectId, keyId, (key) => audio.has(`audio/${key}.wav`));
    const { segments, ...rest } = copy;
    for (let at = 0; at < segments.length; at += ARCHIVE_LIMITS.segmentsPerPart)
      await sendPart(segments.slice(at, at + ARCHIVE_LIMITS.segmentsPerPart));
    return { ...rest, segments: segments.length, audio: audio.size > 0 };
  } catch (error) {
    if (isAppError(error)) throw error;
    throw invalid((error as Error).message, error);
  } finally {
    zip?.close();
  }
}

/**
 * Whether JSON `bytes` nest arrays and objects more than `limit` deep (brackets in strings do not
 * count; a UTF-8 sequence's bytes are never an ASCII bracket or quote).
 */
export function nestingOver(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > limit) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
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

/**
 * The archive's rows under new ids in the project `projectId` of `keyId`: positions in their
 * chapters, and audio the archive does not carry (`hasAudio` false) is not there.
 */
function archiveRows(
  archive: ReturnType<typeof checkArchive>,
  projectId: string,
  keyId: string,
  hasAudio: (audioKey: string) => boolean,
): ClonedProject {
  const positions = new Map<string, number>();
  return cloneRows(
    {
      seq: 0,
      id: projectId,
      key_id: keyId,
      ...archive.project,
      history_position: 0,
      created_at: '',
      updated_at: '',
    },
    archive.chapters.map((c, position) => ({ ...c, project_id: projectId, position })),
    archive.characters.map((c) => ({ ...c, project_id: projectId })),
    archive.segments.map((s) => {
      const position = positions.get(s.chapter_id) ?? 0;
      positions.set(s.chapter_id, position + 1);
      // A segment without its audio is to render again.
      const audioKept = s.audio_key !== null && hasAudio(s.audio_key);
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
}

/** What each audio key of the segments can need: the durations its WAV has, the characters its timings cover. */
function audioNeeds(
  segments: ReturnType<typeof checkArchive>['segments'],
): Map<string, { durations: number[]; characters: number }> {
  const needs = new Map<string, { durations: number[]; characters: number }>();
  for (const s of segments) {
    if (s.audio_key === null) continue;
    const need = needs.get(s.audio_key) ?? { durations: [], characters: 0 };
    if (s.duration_ms !== null) need.durations.push(s.duration_ms);
    need.characters = Math.max(need.characters, countCharacters(s.text));
    needs.set(s.audio_key, need);
  }
  return needs;
}
