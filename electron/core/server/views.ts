/** Stored rows → wire records of `shared/api.ts`. */

import type {
  RequestStatus,
  ApiKeyInfo,
  CallbackAttempt,
  CallbackPayload,
  CallbackResult,
  DirectRecord,
  LedgerEntry,
  RequestDetail,
  RequestRecord,
} from '../../shared/api';
import type { CallbackAttemptRow, KeyRow, LedgerRow, RequestRow } from '../store';
import { toCredits } from '../../shared/pricing';
import { cleanText } from '../../shared/text';
import { ssmlWarnings } from '../../shared/ssml';
import { isoDate, type Links, shownResult } from '../jobs';
import { spokenVoiceCode } from '../../shared/voice-mapping';
import { redactPaths } from '../platform/redact-paths';
import { storedDetails } from '../platform/error-details';

/** The spec's request record (submit result). */
export function toRequestRecord(row: RequestRow, links: Links): RequestRecord {
  const record: RequestRecord = {
    request_id: row.id,
    characters: row.characters,
    voice_code: row.voice_code,
    audio_type: row.audio_type,
    speed_rate: row.speed_rate,
    pitch_rate: row.pitch_rate,
    bitrate: row.bitrate,
    create_at: isoDate(row.created_at),
    status: 'new',
  };
  if (row.generate_srt) record.srt_link = links.srt(row);
  return record;
}

/**
 * The API's progress, the service's percentage: an integer 0–100 from the runner's fraction
 * (0–1), 100 once finished. Rounded down, so 100 means finished.
 */
export function progressPercent(status: RequestStatus, fraction: number | undefined): number {
  if (status === 'SUCCESS' || status === 'FAILURE') return 100;
  return Math.min(99, Math.max(0, Math.floor((fraction ?? 0) * 100)));
}

export function toRequestDetail(row: RequestRow, progress: number | undefined, links: Links): RequestDetail {
  const success = row.status === 'SUCCESS';
  const spoken = spokenVoiceCode(row);
  // SSML's warnings come from the stored text (parsing is deterministic); the render's from
  // its column.
  // Present for SSML input (empty when nothing to say), and whenever the render warned.
  const ssml = ssmlWarnings(cleanText(row.input_text), { voiceCode: spoken });
  const rendered = row.warnings ? (JSON.parse(row.warnings) as string[]) : [];
  const warnings = ssml || rendered.length > 0 ? [...(ssml ?? []), ...rendered] : undefined;
  return {
    request_id: row.id,
    key_id: row.key_id,
    status: row.status,
    progress: progressPercent(row.status, progress),
    characters: row.characters,
    input_text: row.input_text,
    voice_code: row.voice_code,
    spoken_voice_code: spoken,
    voice_match: row.voice_match ?? 'exact',
    model_id: row.model_id,
    audio_type: row.audio_type,
    bitrate: row.bitrate,
    speed_rate: row.speed_rate,
    pitch_rate: row.pitch_rate,
    volume: row.volume,
    generate_srt: row.generate_srt === 1,
    callback_url: row.callback_url,
    cost: toCredits(row.cost_milli),
    created_at: row.created_at,
    finished_at: row.finished_at,
    duration_ms: row.duration_ms,
    audio_bytes: row.audio_bytes,
    engine: row.engine,
    ...(row.kokoro_voice !== null ? { kokoro_voice: row.kokoro_voice } : {}),
    audio_link: success ? links.audio(row) : null,
    srt_link: success && row.generate_srt ? links.srt(row) : null,
    error_code: row.error_code,
    // Recorded without paths since issue 36; older records are shown without them too.
    error_message: row.error_message === null ? null : redactPaths(row.error_message),
    ...storedDetails(row.error_details),
    callback_state: row.callback_state,
    callback_attempts: row.callback_attempts,
    callback_next_attempt_at:
      row.callback_state === 'pending' && row.callback_due_at !== null
        ? new Date(row.callback_due_at).toISOString()
        : null,
    ...(warnings ? { warnings } : {}),
  };
}

/** The answer of a direct submit: the request detail, plus the spec record's `create_at`. */
export function toDirectRecord(row: RequestRow, progress: number | undefined, links: Links): DirectRecord {
  return { ...toRequestDetail(row, progress, links), create_at: isoDate(row.created_at) };
}

/** The spec's stored callback result, from one attempt. */
export function toCallbackResult(attempt: CallbackAttemptRow): CallbackResult {
  return {
    request_id: attempt.request_id,
    callback_url: attempt.callback_url,
    created_at: attempt.created_at,
    payload: JSON.parse(attempt.payload) as CallbackPayload,
    status_code: attempt.status_code,
    result: shownResult(attempt.result),
  };
}

export function toCallbackAttempt(attempt: CallbackAttemptRow): CallbackAttempt {
  return {
    attempt: attempt.attempt,
    ...toCallbackResult(attempt),
    result_code: attempt.result_code ?? null,
    duration_ms: attempt.duration_ms,
  };
}

export function toLedgerEntry(row: LedgerRow): LedgerEntry {
  return {
    kind: row.kind,
    amount: toCredits(row.amount_milli),
    balance_after: toCredits(row.balance_after_milli),
    request_id: row.request_id,
    key_id: row.key_id,
    from_key_id: row.from_key_id ?? null,
    created_at: row.created_at,
  };
}

/** An API key as the studio lists it: never the key itself. */
export function toKeyInfo(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.key_prefix,
    balance: toCredits(row.balance_milli),
    queued: row.queued,
    signing_secret: row.signing_secret,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    studio: Number(row.studio ?? 0) === 1,
  };
}
