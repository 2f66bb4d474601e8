/** An audiobook export's book made by the engine, in the voice (or custom voice snapshot) it was accepted with. */

import type { CoverImage } from '../../shared/book-exports';
import { findVoice } from '../../shared/voices';
import type { BookExportResult } from '../engine';
import type { Log } from '../platform/log';
import type { ExportRow } from '../store';
import { customVoiceRender } from './custom-voice-render';
import type { ExportJobsOptions } from './export-jobs';
import { errorText } from './store-retry';

export async function exportBookOf(
  row: ExportRow,
  options: ExportJobsOptions,
  log: Log,
  outPath: string,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<BookExportResult> {
  // A custom voice speaks as it was when accepted (its snapshot), not as it is now.
  const custom = await customVoiceRender(row.custom_voice, row, options, (message) =>
    log.warn(`export ${row.id}: ${message}`),
  );
  const voiceCode = custom ? custom.resolved.voice_code : row.voice_code;
  const neuralVoice = custom
    ? custom.resolved.neuralVoice
    : await options.neuralVoice?.(voiceCode, row.model_id).catch((error: unknown) => {
        log.warn(`export ${row.id}: voice library unreadable, eSpeak speaks: ${errorText(error)}`);
        return undefined;
      });
  const language = findVoice(voiceCode)?.language;
  const lexicon = custom ? custom.lexicon : language ? await options.lexicon?.(language) : undefined;
  for (const warning of custom?.warnings ?? []) log.warn(`export ${row.id}: ${warning}`);
  return await options.engine.exportBook({
    text: row.input_text,
    voice_code: voiceCode,
    model_id: row.model_id,
    speed_rate: custom ? custom.resolved.speed_rate : row.speed_rate,
    pitch_rate: custom ? custom.resolved.pitch_rate : row.pitch_rate,
    volume: custom ? custom.resolved.volume : row.volume,
    neuralVoice,
    lexicon,
    preset: row.preset,
    format: row.format,
    folderFormat: row.folder_format ?? undefined,
    title: row.title ?? undefined,
    author: row.author ?? undefined,
    cover:
      row.cover_base64 && row.cover_type
        ? {
            data: Buffer.from(row.cover_base64, 'base64'),
            mimeType: row.cover_type as CoverImage['mimeType'],
          }
        : undefined,
    outPath,
    signal,
    onProgress,
  });
}
