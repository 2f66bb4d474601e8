/**
 * Where the voice library lives in a data directory: `<dataDir>/voices/<pack id>/` per pack,
 * `.tmp-<random>/` for installs in progress, `.trash-<random>/` for packs being deleted, and
 * `assignments.json` for the user's voice assignments, `samples/` for the sample recordings heard
 * before a download (never a pack). Names starting with a dot are never packs.
 */

import { join } from 'node:path';

export const VOICES_FOLDER = 'voices';
export const TEMP_PREFIX = '.tmp-';
export const TRASH_PREFIX = '.trash-';
const ASSIGNMENTS_FILE = 'assignments.json';
/** Inside a temporary folder: who is installing what (for resuming after a crash). */
export const OWNER_FILE = '.owner.json';
/** `voices/samples/<pack id>/speaker_<n>.mp3`: the publisher's sample recordings, kept once fetched. */
export const SAMPLES_FOLDER = 'samples';
/** Inside a pack folder: its speed measured on first use (see pack-speed.ts). */
export const SPEED_FILE = 'speed.json';
/** Suffix of a file still downloading. */
export const PART_SUFFIX = '.part';

export function voicesDir(dataDir: string): string {
  return join(dataDir, VOICES_FOLDER);
}

export function packDir(dataDir: string, id: string): string {
  return join(voicesDir(dataDir), id);
}

export function assignmentsPath(dataDir: string): string {
  return join(voicesDir(dataDir), ASSIGNMENTS_FILE);
}

export function samplesDir(dataDir: string): string {
  return join(voicesDir(dataDir), SAMPLES_FOLDER);
}
