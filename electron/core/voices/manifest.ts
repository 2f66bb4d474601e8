/**
 * `voices/<id>/manifest.json`: read, checked against its schema, and written (into the
 * temporary folder, before the folder is renamed into place, so it needs no staging of its own).
 */

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { AppError } from '../../shared/errors';
import { PackManifestSchema, type PackManifest } from '../../shared/voice-packs';
import { outsideNameProblem } from '../platform/outside-names';
import { outputFailedError } from '../platform/staged-file';

export const MANIFEST_FILE = 'manifest.json';

/** The manifest in `text`; AppError VOICE_PACK_INVALID naming `where` when it is not one. */
function parseManifest(text: string, where: string): PackManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('VOICE_PACK_INVALID', `${where} is not valid JSON.`, { path: where });
  }
  if (!Value.Check(PackManifestSchema, value)) {
    const first = Value.Errors(PackManifestSchema, value).First();
    const at = first ? `${first.path || '/'}: ${first.message}` : 'unknown problem';
    throw new AppError('VOICE_PACK_INVALID', `${where} is not a voice pack manifest (${at}).`, {
      path: where,
    });
  }
  // Its file names become paths inside the pack: one that could leave it makes no pack.
  const names = [
    value.model,
    value.config,
    ...value.files.map((f) => f.path),
    ...value.voices.map((v) => v.file),
  ];
  for (const name of names) {
    const problem = outsideNameProblem(name, true);
    if (problem) {
      throw new AppError('VOICE_PACK_INVALID', `${where} names a file "${name}" that ${problem}.`, {
        path: where,
      });
    }
  }
  return value;
}

/** The manifest of the pack in `packDir`; VOICE_PACK_INVALID when missing or malformed. */
export async function readManifest(packDir: string): Promise<PackManifest> {
  const path = join(packDir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AppError('VOICE_PACK_INVALID', `${path} cannot be read.`, { path }, { cause: error });
  }
  return parseManifest(text, path);
}

/** Writes `manifest.json` into `packDir` (a folder nobody else sees yet). */
export async function writeManifest(packDir: string, manifest: PackManifest): Promise<void> {
  const path = join(packDir, MANIFEST_FILE);
  try {
    await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (error) {
    throw outputFailedError('the voice pack manifest', path, 'write', error);
  }
}
