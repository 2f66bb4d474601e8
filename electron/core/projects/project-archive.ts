/**
 * A whole project as one zip: `project.json` (settings, cover, cast, chapters, segments with
 * their audio state) and `audio/<audio_key>.wav|.json` for the segment audio files present
 * (archive-format.ts). Written with the zip writer (platform/zip-writer.ts). Read off this
 * thread: a child process (project-archive-child.ts, archive-reader.ts) lists the zip, reads and
 * checks project.json whole (the schema, every reference, the project limits), checks the audio
 * and unpacks it into a staging folder, and gives the rows new ids, in its turn among the
 * manuscript readers (fair between keys, ARCHIVE_LIMITS' time and memory limits, killed when the
 * caller's signal aborts); this thread then stores the rows and moves the staging folder's audio
 * into the project's. A bad archive is refused with an error naming the file, and nothing of it is kept.
 */

import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ProjectDetail } from '../../shared/projects';
import { readerTurn, runInChild } from '../manuscripts';
import { scriptBeside } from '../platform/script-url';
import { writeZip, type ZipEntry } from '../platform/zip-writer';
import type { SegmentRow, Store } from '../store';
import { ARCHIVE_FORMAT, ARCHIVE_LIMITS, ARCHIVE_VERSION, type Archive } from './archive-format';
import type { ArchiveRead, ArchiveReadRequest } from './archive-reader';
import { newId } from './project-rows';
import type { ProjectService } from './project-service';

export { ARCHIVE_LIMITS } from './archive-format';

/** The archive reader's child script. */

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
      speak_headings:
        project.speak_headings === 0 || project.speak_headings === 1 ? project.speak_headings : null,
      credits: project.credits === 0 || project.credits === 1 ? project.credits : null,
      narrator_name: project.narrator_name ?? null,
      copyright: project.copyright ?? null,
      opening_credits: project.opening_credits ?? null,
      closing_credits: project.closing_credits ?? null,
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

/** What a read of an archive may be given besides the file. */
export interface ArchiveReadOptions {
  /** Aborting stops the read: a waiting read leaves the queue, a running one's child is killed. */
  signal?: AbortSignal;
}

/**
 * Makes a new project of `keyId` from an archive file (new ids; audio files into its folder): the
 * archive is read, checked and its audio unpacked in a child process (archive-reader.ts says what
 * is checked, in which order) in `keyId`'s turn among the readers; this thread stores the rows
 * and moves the audio. Refuses a bad archive whole with MANUSCRIPT_INVALID, MANUSCRIPT_TOO_LARGE
 * or INSUFFICIENT_STORAGE naming `fileName`, TOO_MANY_REQUESTS when the readers' queue (or the
 * key's places in it) is full, or CANCELLED when `signal` aborts; nothing of it is kept (the
 * child is killed and its staging folder removed).
 */
export async function readProjectArchive(
  service: ProjectService,
  keyId: string,
  path: string,
  fileName: string,
  archiveBytes: number,
  { signal }: ArchiveReadOptions = {},
): Promise<ProjectDetail> {
  const projectId = newId();
  const dir = service.audioDir(projectId);
  // The staging folder is on the data folder's disk: its audio moves into the project's by a rename.
  await mkdir(service.tempDir, { recursive: true });
  const stagingDir = await mkdtemp(join(service.tempDir, 'archive-'));
  try {
    const { read, segments } = await readArchiveRows(
      keyId,
      { path, fileName, archiveBytes, projectId, keyId, stagingDir },
      signal,
    );
    if (read.audio) {
      await mkdir(dirname(dir), { recursive: true });
      await rename(join(stagingDir, 'audio'), dir);
    }
    try {
      const { audio: _audio, segments: _count, ...rows } = read;
      return await service.saveClone({ ...rows, segments }, new Date().toISOString());
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  } finally {
    await rm(stagingDir, { recursive: true, force: true });
  }
}

/**
 * The archive of `request` read, checked and its audio unpacked in a child process in `keyId`'s
 * turn among the readers: the project's rows under new ids, the segments received in parts.
 */
export async function readArchiveRows(
  keyId: string,
  request: ArchiveReadRequest,
  signal?: AbortSignal,
): Promise<{ read: ArchiveRead; segments: SegmentRow[] }> {
  const segments: SegmentRow[] = [];
  const read = await readerTurn(
    keyId,
    request.fileName,
    () =>
      runInChild<ArchiveRead>(
        {
          script: scriptBeside('project-archive-child', import.meta.url),
          fileName: request.fileName,
          what: 'project archive',
        },
        request,
        { timeoutMs: ARCHIVE_LIMITS.readerTimeoutMs, maxRssBytes: ARCHIVE_LIMITS.readerMaxRssBytes },
        signal,
        (part) => {
          for (const row of part as SegmentRow[]) segments.push(row);
        },
      ),
    signal,
  );
  return { read, segments };
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
