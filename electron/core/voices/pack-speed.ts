/**
 * Each installed pack's speed on this machine, measured on its first use: the first render
 * spoken by that pack alone gives the real-time factor (wall time ÷ audio duration) and the
 * time to first audio, kept in `voices/<id>/speed.json` and never measured again (removing
 * the pack removes them). Written through a temp file and a rename, so a reader never sees
 * half a file; two first renders at once both measure, the last rename wins.
 */

import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { Engine } from '../engine';
import { silentLog, type Log } from '../platform/log';
import { isValidPackId, PackSpeedSchema, type PackSpeed } from '../../shared/voice-packs';
import { packDir, SPEED_FILE } from './layout';

/** What a render reports that the measure needs (a subset of the engine's RenderResult). */
export interface MeasuredRender {
  /** The engine label(s): `piper:<pack>#<speaker>`, `kokoro:<pack>#<voice>`, `espeak`, comma-joined. */
  engine: string;
  durationMs: number;
  characters: number;
  timing?: { wallMs: number; firstAudioMs: number };
}

/** The pack a render spoke with alone, or undefined (eSpeak, several voices, no pack). */
export function measuredPackId(engine: string): string | undefined {
  if (engine.includes(',')) return undefined;
  const match = /^(?:piper|kokoro):([^#]+)#/.exec(engine);
  return match && isValidPackId(match[1]!) ? match[1] : undefined;
}

/** The pack's measured speed, or null when not measured yet (or the file is unreadable). */
export async function readPackSpeed(dataDir: string, id: string): Promise<PackSpeed | null> {
  try {
    const value: unknown = JSON.parse(await readFile(join(packDir(dataDir, id), SPEED_FILE), 'utf8'));
    return Value.Check(PackSpeedSchema, value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Records `render`'s speed for its pack when it is the pack's first measured use; returns what
 * was written, or undefined when nothing was (not one pack, no timing, already measured, the
 * pack is gone).
 */
export async function recordPackSpeed(
  dataDir: string,
  render: MeasuredRender,
  now: () => Date = () => new Date(),
): Promise<PackSpeed | undefined> {
  const id = measuredPackId(render.engine);
  if (!id || !render.timing || render.durationMs <= 0) return undefined;
  const dir = packDir(dataDir, id);
  const target = join(dir, SPEED_FILE);
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) return undefined;
  if (await stat(target).catch(() => undefined)) return undefined;
  const { wallMs, firstAudioMs } = render.timing;
  const speed: PackSpeed = {
    rtf: round(wallMs / render.durationMs, 4),
    ttfa_ms: round(firstAudioMs, 1),
    wall_ms: round(wallMs, 1),
    audio_ms: round(render.durationMs, 1),
    characters: render.characters,
    engine: render.engine,
    measured_at: now().toISOString(),
  };
  const temp = join(dir, `.${SPEED_FILE}.${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temp, `${JSON.stringify(speed, null, 2)}\n`);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return speed;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * `engine` whose renders record their pack's speed on its first use (see recordPackSpeed); a
 * failure to record is logged, never the render's failure.
 */
export function recordingPackSpeed(engine: Engine, dataDir: string, log: Log = silentLog): Engine {
  const measured = Object.create(engine) as Engine;
  measured.render = async (request) => {
    const result = await engine.render(request);
    try {
      const speed = await recordPackSpeed(dataDir, result);
      if (speed)
        log.info(`${speed.engine}: measured on first use, RTF ${speed.rtf}, first audio ${speed.ttfa_ms} ms`);
    } catch (error) {
      log.warn(`The speed of ${result.engine} could not be recorded: ${(error as Error).message}`);
    }
    return result;
  };
  return measured;
}
