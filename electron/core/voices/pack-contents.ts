/**
 * What a voice pack must hold and the checks made before it is renamed into place: a Piper
 * voice is `<name>.onnx` + `<name>.onnx.json` (a config with the keys Piper reads); a Kokoro
 * pack is a model `.onnx`, voice `.bin` files of 510×256 float32 and a vocabulary JSON. Also
 * finds these files in a folder (an import or an unpacked archive) and hashes files.
 *
 * The Piper config and Kokoro vocabulary are checked with the engine's own parsers
 * (`engine/onnx/voice-config.ts`), so a pack that installs is one the engine can read. Whether the
 * `.onnx` is a usable model is decided by the caller's `validateModel` (the engine loads ONNX;
 * this layer never imports onnxruntime; the tests' cheap stand-in, which only looks at the first
 * bytes, is `checkOnnxHeader` in test/fixtures/onnx-header.ts).
 */

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { AppError } from '../../shared/errors';
import { KOKORO_VOICE_BYTES, type VoicePackFamily } from '../../shared/voice-packs';
import { parseKokoroVocab, parsePiperConfig, type PiperConfig } from '../engine';

/** Checks that a model file can be used; rejects (ideally with VOICE_PACK_INVALID) when not. */
export type ValidateModel = (path: string, family: VoicePackFamily) => Promise<void>;

function invalid(message: string, path?: string): AppError {
  return new AppError('VOICE_PACK_INVALID', message, path ? { path } : undefined);
}

export async function readPiperConfig(path: string): Promise<PiperConfig> {
  return parsePiperConfig(await readText(path), path);
}

/** Checks a Kokoro vocabulary file (the engine's parser); returns the number of symbols. */
export async function checkKokoroVocab(path: string): Promise<number> {
  return Object.keys(parseKokoroVocab(await readText(path), path)).length;
}

/** A Kokoro voice file must be exactly 510×256 float32 (522,240 bytes). */
export async function checkKokoroVoiceFile(path: string): Promise<void> {
  const { size } = await stat(path);
  if (size !== KOKORO_VOICE_BYTES) {
    throw invalid(
      `${basename(path)} is ${size} bytes; a Kokoro voice is 510×256 float32 (${KOKORO_VOICE_BYTES} bytes).`,
      path,
    );
  }
}

export interface FileDigests {
  size: number;
  sha256: string;
  md5: string;
}

/** Size, sha256 and md5 of a file in one pass. */
export async function hashFile(path: string, signal?: AbortSignal): Promise<FileDigests> {
  const sha256 = createHash('sha256');
  const md5 = createHash('md5');
  let size = 0;
  const stream = createReadStream(path, { highWaterMark: 1 << 20, signal });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    sha256.update(chunk);
    md5.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: sha256.digest('hex'), md5: md5.digest('hex') };
}

/** The files of a pack found on disk (absolute paths). */
export type FoundPack =
  | { family: 'piper'; model: string; config: string; card: string | undefined }
  | {
      family: 'kokoro';
      model: string;
      vocab: string;
      /** `config.json` / `tokenizer_config.json` beside the vocabulary, when present. */
      extras: string[];
      voices: string[];
      card: string | undefined;
    };

/** Folders deeper than this below the import root are not searched. */
const MAX_DEPTH = 4;
/** More entries than this in an import is not a voice pack. */
const MAX_ENTRIES = 20_000;

async function listFiles(root: string): Promise<string[]> {
  const files: string[] = [];
  let seen = 0;
  async function walk(dir: string, depth: number): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (++seen > MAX_ENTRIES) throw invalid(`${root} holds too many files to be a voice pack.`, root);
      if (entry.name.startsWith('.') || entry.name === '__MACOSX') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path, depth + 1);
      else if (entry.isFile()) files.push(path);
    }
  }
  await walk(root, 0);
  return files;
}

const VOCAB_NAMES = ['tokenizer.json', 'config.json'];

/**
 * Finds one voice pack in `root`: a Piper voice (`<name>.onnx` with `<name>.onnx.json`), else
 * a Kokoro pack (an `.onnx`, `.bin` voices, a vocabulary); `pinnedModel` picks the model when
 * the folder holds several exports. VOICE_PACK_INVALID says what is missing, or that the folder
 * holds several voices.
 */
export async function findPackFiles(root: string, pinnedModel?: string): Promise<FoundPack> {
  const files = await listFiles(root);
  const onnx = pinnedModel ? [pinnedModel] : files.filter((f) => f.toLowerCase().endsWith('.onnx'));
  const piper = onnx.filter((f) => files.includes(`${f}.json`));
  if (piper.length > 1) {
    const names = piper.map((f) => basename(f, '.onnx')).join(', ');
    throw invalid(`${root} holds several Piper voices (${names}); import them one at a time.`, root);
  }
  if (piper.length === 1) {
    const model = piper[0]!;
    return { family: 'piper', model, config: `${model}.json`, card: besideFile(files, model, 'MODEL_CARD') };
  }
  if (onnx.length === 0) {
    throw invalid(
      `${root} holds no voice: expected a Piper <name>.onnx with <name>.onnx.json, or a Kokoro model .onnx with voice .bin files and tokenizer.json.`,
      root,
    );
  }
  if (onnx.length > 1) {
    const names = onnx.map((f) => relative(root, f)).join(', ');
    throw invalid(`${root} holds several models (${names}); import one at a time.`, root);
  }
  const model = onnx[0]!;
  const voices = files.filter((f) => f.toLowerCase().endsWith('.bin'));
  if (voices.length === 0) {
    throw invalid(
      `${root} has a model (${basename(model)}) but no .onnx.json (Piper) and no voice .bin files (Kokoro).`,
      root,
    );
  }
  const jsons = files.filter((f) => VOCAB_NAMES.includes(basename(f)));
  // The vocabulary: tokenizer.json first, else a config.json with a vocab, nearest the model.
  let vocab: string | undefined;
  for (const name of VOCAB_NAMES) {
    for (const candidate of jsons.filter((f) => basename(f) === name)) {
      if (
        await checkKokoroVocab(candidate).then(
          () => true,
          () => false,
        )
      ) {
        vocab = candidate;
        break;
      }
    }
    if (vocab) break;
  }
  if (!vocab) {
    throw invalid(
      `${root} has a Kokoro model and voices but no vocabulary (tokenizer.json with "model.vocab", or config.json with "vocab").`,
      root,
    );
  }
  const extras = files.filter(
    (f) =>
      f !== vocab &&
      dirname(f) === dirname(vocab) &&
      ['config.json', 'tokenizer_config.json', 'tokenizer.json'].includes(basename(f)),
  );
  return { family: 'kokoro', model, vocab, extras, voices, card: besideFile(files, model, 'MODEL_CARD') };
}

function besideFile(files: string[], near: string, name: string): string | undefined {
  // The model's own folder, or its parent (Kokoro keeps the model under onnx/).
  return [dirname(near), dirname(dirname(near))]
    .map((dir) => join(dir, name))
    .find((candidate) => files.includes(candidate));
}

/** The licence line of a Piper MODEL_CARD (`* License: …`), when there is one. */
export function licenceFromModelCard(text: string): string | undefined {
  const line = /^\s*\*\s*Licen[cs]e:\s*(.+?)\s*$/im.exec(text);
  return line?.[1];
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new AppError('VOICE_PACK_INVALID', `${basename(path)} cannot be read.`, { path }, { cause: error });
  }
}
