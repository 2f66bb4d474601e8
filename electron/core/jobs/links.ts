/**
 * Download addresses of a request's files: absolute URLs on this server with the request's
 * secret token in the path, so a callback receiver without a key can fetch them.
 */

import type { CallbackPayload } from '../../shared/api';
import type { RequestRow } from '../store';

export interface Links {
  audio(row: Pick<RequestRow, 'id' | 'download_token' | 'audio_type'>): string;
  srt(row: Pick<RequestRow, 'id' | 'download_token'>): string;
}

/** `baseUrl` is read on every call: the port is known only once the server listens. */
export function createLinks(baseUrl: () => string): Links {
  return {
    audio: (row) => `${baseUrl()}/files/${row.id}/${row.download_token}/audio.${row.audio_type}`,
    srt: (row) => `${baseUrl()}/files/${row.id}/${row.download_token}/subtitles.srt`,
  };
}

/** YYYY-MM-DD (UTC) of an ISO time. */
export function isoDate(iso: string): string {
  return iso.slice(0, 10);
}

/** The callback body of the spec for a finished request. */
export function buildCallbackPayload(row: RequestRow, links: Links): CallbackPayload {
  const success = row.status === 'SUCCESS';
  const payload: CallbackPayload = {
    request_id: row.id,
    characters: row.characters,
    voice_code: row.voice_code,
    audio_type: row.audio_type,
    speed_rate: row.speed_rate,
    pitch_rate: row.pitch_rate,
    bitrate: row.bitrate,
    created_at: isoDate(row.created_at),
    status: success ? 'SUCCESS' : 'FAILURE',
    audio_link: success ? links.audio(row) : '',
  };
  if (success && row.generate_srt) payload.srt_link = links.srt(row);
  if (!success) {
    payload.error_code = row.error_code ?? 'INTERNAL';
    payload.error_message = row.error_message ?? 'Synthesis failed.';
  }
  return payload;
}
