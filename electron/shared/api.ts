/**
 * Wire records of the local API, defined once as TypeBox schemas and used as types
 * (`Static<typeof X>`). Names follow the spec exactly, quirks included: the submit result
 * spells `create_at`, the callback payload spells `created_at`.
 *
 * Records marked "spec" are the service's; the others are this app's extensions for the UI
 * and for integrators. Routes validate input with these schemas; the renderer imports the types.
 */

import { LANGUAGE_CODES } from './languages';
import { UnknownVoicePolicySchema, VoiceAliasesSchema } from './voice-mapping';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from './errors';
import {
  AUDIO_FORMATS,
  AUDIO_TYPES,
  BITRATES,
  MODEL_IDS,
  RATE_MAX,
  RATE_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
} from './options';
import { AbsolutePathSchema, AllowedOriginsSchema, FirstRunVoiceOfferSchema, PortSchema } from './settings';

const literals = <T extends string | number>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));

/** Nullable helper: `T | null`. */
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

// ---------------------------------------------------------------------------------------
// Spec records

/**
 * `response_type` of the submit: `indirect` (the spec's, the default) answers at once with the
 * request record; `direct` (what the service's clients also send) waits for the render and
 * answers the finished record with its links (`DirectRecordSchema`).
 */
export const RESPONSE_TYPES = ['indirect', 'direct'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/**
 * Body of POST /api/v1/tts (spec: "TTS request"), as checked after the one lenience of the
 * wire: numbers and `generate_srt` may arrive as strings (`"128"`, `"1.0"`, `"true"`), which
 * `parseTtsRequest` (server/validation.ts) turns into their values first. Unknown extra fields
 * (`app_id`, …) are ignored.
 */
export const TtsRequestSchema = Type.Object({
  response_type: Type.Optional(literals(RESPONSE_TYPES)),
  /** http or https URL; the result is POSTed there. */
  callback_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  input_text: Type.String(),
  voice_code: Type.String(),
  model_id: Type.Optional(literals(MODEL_IDS)),
  audio_type: Type.Optional(literals(AUDIO_TYPES)),
  bitrate: Type.Optional(literals(BITRATES)),
  /** 0.5–2.0, at most one digit after the point (checked beyond the schema). */
  speed_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  pitch_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  volume: Type.Optional(Type.Integer({ minimum: VOLUME_MIN, maximum: VOLUME_MAX })),
  generate_srt: Type.Optional(Type.Boolean()),
});
export type TtsRequest = Static<typeof TtsRequestSchema>;

/** Result of the submit operation (spec: "Request record"). Note `create_at`. */
export const RequestRecordSchema = Type.Object({
  /** 32 lowercase hex digits (128 random bits). */
  request_id: Type.String(),
  /** Code points of the cleaned input text (the billable count). */
  characters: Type.Integer(),
  voice_code: Type.String(),
  audio_type: literals(AUDIO_FORMATS),
  speed_rate: Type.Number(),
  pitch_rate: Type.Number(),
  bitrate: literals(BITRATES),
  /** UTC date, YYYY-MM-DD. */
  create_at: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  status: Type.Literal('new'),
  /** Only when generate_srt was true: where the subtitle file will be downloadable once done. */
  srt_link: Type.Optional(Type.String()),
});
export type RequestRecord = Static<typeof RequestRecordSchema>;

export const SubmitResponseSchema = Type.Object({ status: Type.Literal(1), result: RequestRecordSchema });
export type SubmitResponse = Static<typeof SubmitResponseSchema>;

export const FINAL_STATUSES = ['SUCCESS', 'FAILURE'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

/** Body POSTed to callback_url (spec: "Callback payload"). Note `created_at`. */
export const CallbackPayloadSchema = Type.Object({
  request_id: Type.String(),
  characters: Type.Integer(),
  voice_code: Type.String(),
  audio_type: literals(AUDIO_FORMATS),
  speed_rate: Type.Number(),
  pitch_rate: Type.Number(),
  bitrate: literals(BITRATES),
  /** UTC date of the request, YYYY-MM-DD. */
  created_at: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  status: literals(FINAL_STATUSES),
  /** Absolute download URL (token inside, no auth header needed); empty string on FAILURE. */
  audio_link: Type.String(),
  /** Present when the request asked for generate_srt and synthesis succeeded. */
  srt_link: Type.Optional(Type.String()),
  /** Present on FAILURE only. */
  error_code: Type.Optional(Type.String()),
  error_message: Type.Optional(Type.String()),
});
export type CallbackPayload = Static<typeof CallbackPayloadSchema>;

/**
 * What came of a delivery attempt, as a stable code beside `result`'s English words (a client
 * words it in its own language): `http` an answer (its status in `status_code`), the others a
 * connection that gave none; `timeout_connect` / `timeout_answer` the attempt's timeout passed,
 * `not_allowed` a destination the server does not call, `other` an error without a known kind.
 */
export const CALLBACK_RESULT_CODES = [
  'http',
  'refused',
  'reset',
  'closed',
  'host_unreachable',
  'network_unreachable',
  'host_not_found',
  'host_not_found_temporary',
  'timeout_connect',
  'timeout_answer',
  'aborted',
  'cert_expired',
  'cert_self_signed',
  'cert_untrusted',
  'cert_host',
  'not_allowed',
  'other',
] as const;
export type CallbackResultCode = (typeof CALLBACK_RESULT_CODES)[number];

/** Result of GET /api/v1/tts/<id>/callback-result (spec: "Stored callback result"): the latest attempt. */
export const CallbackResultSchema = Type.Object({
  request_id: Type.String(),
  callback_url: Type.String(),
  /** When the attempt was made: ISO 8601 with milliseconds and Z. */
  created_at: Type.String(),
  payload: CallbackPayloadSchema,
  /** HTTP status of the receiver's answer; null when the connection failed. */
  status_code: Nullable(Type.Integer()),
  /** "HTTP 200", "HTTP 500: <start of body>", or the connection error, e.g. "connect ECONNREFUSED 127.0.0.1:9". */
  result: Type.String(),
});
export type CallbackResult = Static<typeof CallbackResultSchema>;

export const CallbackResultResponseSchema = Type.Object({
  status: Type.Literal(1),
  result: CallbackResultSchema,
});
export type CallbackResultResponse = Static<typeof CallbackResultResponseSchema>;

/** An error's particulars (`error_details`): names to strings, numbers or booleans (see errors.ts). */
export const ErrorDetailsSchema = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
);
export type ErrorDetails = Static<typeof ErrorDetailsSchema>;

/** Every failure, on every route of /api (spec: "Errors"). */
export const ErrorBodySchema = Type.Object({
  status: Type.Literal(0),
  error_code: Type.Unsafe<ErrorCode>(Type.String()),
  error_message: Type.String(),
  /**
   * An extension of the spec (which lists only `status`, `error_code`, `error_message`; clients
   * ignore fields they do not know): the error's particulars, for a client to write its own
   * sentence (the studio does, in its language). Plain values only; never a path of this machine.
   */
  error_details: Type.Optional(ErrorDetailsSchema),
});
export type ErrorBody = Static<typeof ErrorBodySchema>;

// ---------------------------------------------------------------------------------------
// Extensions

export const REQUEST_STATUSES = ['new', 'processing', 'SUCCESS', 'FAILURE'] as const;
/** `processing` is ours: the spec shows only new, SUCCESS and FAILURE. */
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const CALLBACK_STATES = ['none', 'waiting', 'pending', 'delivered', 'failed'] as const;
/**
 * none: no callback_url; waiting: synthesis not finished; pending: due or retrying;
 * delivered: a 2xx answer was received; failed: every attempt of the round failed.
 */
export type CallbackState = (typeof CALLBACK_STATES)[number];

/** GET /api/v1/tts/<id> and items of GET /api/v1/tts. */
export const RequestDetailSchema = Type.Object({
  request_id: Type.String(),
  /** Our addition: the id of the API key that made it (the studio lists every key's). */
  key_id: Type.String(),
  status: literals(REQUEST_STATUSES),
  /**
   * Percentage done, an integer 0–100 as the service documents it ("phần trăm xử lý"): 0 while
   * new, rising while processing, 100 once finished (SUCCESS or FAILURE).
   */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  characters: Type.Integer(),
  input_text: Type.String(),
  /** As the request was sent (a code that is not ours stays as sent: see spoken_voice_code). */
  voice_code: Type.String(),
  /**
   * Our voice that speaks it: voice_code itself, or the voice a code that is not ours was mapped
   * to (`serve --voice-alias`, `--unknown-voices closest`); `engine` says what spoke that voice.
   */
  spoken_voice_code: Type.String(),
  /** How spoken_voice_code was found: `exact` (our own code), `alias` or `closest`. */
  voice_match: literals(['exact', 'alias', 'closest', 'custom'] as const),
  model_id: literals(MODEL_IDS),
  audio_type: literals(AUDIO_FORMATS),
  bitrate: literals(BITRATES),
  speed_rate: Type.Number(),
  pitch_rate: Type.Number(),
  volume: Type.Integer(),
  generate_srt: Type.Boolean(),
  callback_url: Nullable(Type.String()),
  /** Credits charged (refunded on FAILURE). */
  cost: Type.Number(),
  /** ISO 8601 with milliseconds and Z. */
  created_at: Type.String(),
  finished_at: Nullable(Type.String()),
  duration_ms: Nullable(Type.Integer()),
  audio_bytes: Nullable(Type.Integer()),
  /**
   * What spoke it, once finished SUCCESS: `espeak` (the base engine, also when the neural voice
   * a voice code needs is not installed) or a neural voice, `piper:<pack id>#<speaker>` or
   * `kokoro:<pack id>#<voice>`. Null before.
   */
  engine: Nullable(Type.String()),
  /**
   * The Kokoro voice or mix the client named (Kokoro-FastAPI's `af_bella(2)+af_sky(1)`), when
   * it named one: a Kokoro pack holding it speaks it, else `voice_code` (see `engine`).
   */
  kokoro_voice: Type.Optional(Type.String()),
  audio_link: Nullable(Type.String()),
  srt_link: Nullable(Type.String()),
  error_code: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  /** Our addition, on a FAILURE with particulars: as an error body's `error_details`. */
  error_details: Type.Optional(ErrorDetailsSchema),
  callback_state: literals(CALLBACK_STATES),
  callback_attempts: Type.Integer(),
  /** ISO time of the next scheduled attempt, when one is scheduled. */
  callback_next_attempt_at: Nullable(Type.String()),
  /**
   * Our addition, present when there is something to say, one sentence each: for SSML input,
   * what the document asked for that is not done (an element outside the supported set, whose
   * text is read), each with its line and column; once rendered, the phonemes a neural voice did
   * not know and left out of the audio (`<voice> does not know N phonemes of this text and left
   * them out: "2" ×6 (U+0032), …`).
   */
  warnings: Type.Optional(Type.Array(Type.String())),
});
export type RequestDetail = Static<typeof RequestDetailSchema>;

/**
 * Result of POST /api/v1/tts with `response_type: "direct"`: the request detail as GET
 * /api/v1/tts/<id> answers it when the submit stops waiting, plus the spec record's `create_at`
 * (so it also holds every field of the indirect answer). `status` is SUCCESS (with `audio_link`,
 * and `srt_link` when asked for) or FAILURE (with `error_code`, `error_message`) once rendered;
 * `new` or `processing` (no links yet) when the wait limit passed first or the server is
 * stopping: the request carries on as an indirect one would.
 */
export const DirectRecordSchema = Type.Composite([
  RequestDetailSchema,
  Type.Object({
    /** UTC date, YYYY-MM-DD, as in the indirect answer. */
    create_at: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  }),
]);
export type DirectRecord = Static<typeof DirectRecordSchema>;

export const DirectSubmitResponseSchema = Type.Object({
  status: Type.Literal(1),
  result: DirectRecordSchema,
});
export type DirectSubmitResponse = Static<typeof DirectSubmitResponseSchema>;

/**
 * The page of a list (GET /api/v1/tts, GET /api/v1/usage). Query strings are text: numbers
 * arrive as digit strings.
 */
export const PageQuerySchema = Type.Object({
  /** 1-based. */
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$' })),
  /** 1 to 100. */
  page_size: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|100)$' })),
});
export type PageQuery = Static<typeof PageQuerySchema>;

/**
 * Which key's records a list shows (`key` of GET /api/v1/tts and GET /api/v1/usage): `all`, or
 * a key's id. The signed-in studio only; without it, the caller's own key. A bearer key may
 * name only itself.
 */
export const KEY_FILTER_ALL = 'all';
const KeyFilterSchema = Type.String({ minLength: 1, maxLength: 100 });

/** Query of GET /api/v1/tts: a page, filtered by status and voice (and key: the studio's). */
export const RequestListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  key: Type.Optional(KeyFilterSchema),
  status: Type.Optional(literals(REQUEST_STATUSES)),
  voice_code: Type.Optional(Type.String()),
});
export type RequestListQuery = Static<typeof RequestListQuerySchema>;

export const RequestListSchema = Type.Object({
  items: Type.Array(RequestDetailSchema),
  /** 1-based. */
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer(),
});
export type RequestList = Static<typeof RequestListSchema>;

/** One stored delivery attempt (GET /api/v1/tts/<id>/callback-attempts). */
export const CallbackAttemptSchema = Type.Object({
  attempt: Type.Integer(),
  ...CallbackResultSchema.properties,
  /**
   * `result` as a stable code (CALLBACK_RESULT_CODES); null for attempts recorded before codes
   * were. Only in the attempts list: the spec's stored callback result keeps its own fields.
   */
  result_code: Nullable(literals(CALLBACK_RESULT_CODES)),
  duration_ms: Type.Integer(),
});
export type CallbackAttempt = Static<typeof CallbackAttemptSchema>;

/**
 * How many delivery attempts a request keeps, and GET /api/v1/tts/<id>/callback-attempts's
 * pages: each resend adds up to `--callback-attempts` (default 6) records, so a request keeps its
 * newest `kept` (older ones are dropped as new ones are recorded; `dropped` counts them) and
 * answers them newest first, `page` at most an answer (default `pageDefault`).
 */
export const CALLBACK_ATTEMPT_LIMITS = {
  kept: 100,
  page: 100,
  pageDefault: 20,
} as const;

/** Query of GET /api/v1/tts/<id>/callback-attempts. */
export const CallbackAttemptListQuerySchema = Type.Object({
  /** Attempts at most: 1 to 100 (default 20). */
  limit: Type.Optional(
    Type.String({ pattern: '^([1-9][0-9]?|100)$', description: '1 to 100 (default 20).' }),
  ),
  /** A `next_cursor` of this list, unchanged (opaque); without it, the newest attempts. */
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type CallbackAttemptListQuery = Static<typeof CallbackAttemptListQuerySchema>;

/**
 * GET /api/v1/tts/<id>/callback-attempts: a page of the request's attempts, newest first;
 * `next_cursor` (null on the last page) reads the older ones after it.
 */
export const CallbackAttemptListSchema = Type.Object({
  items: Type.Array(CallbackAttemptSchema, { maxItems: CALLBACK_ATTEMPT_LIMITS.page }),
  next_cursor: Nullable(Type.String()),
  /** The attempts kept (at most CALLBACK_ATTEMPT_LIMITS.kept). */
  total: Type.Integer(),
  /** Older attempts made but no longer kept (the request's callback_attempts is every one made). */
  dropped: Type.Integer(),
});
export type CallbackAttemptList = Static<typeof CallbackAttemptListSchema>;

/** A voice of GET /api/v1/voices. */
export const VoiceSchema = Type.Object({
  voice_code: Type.String(),
  name: Type.String(),
  language: Type.String(),
  language_name: Type.String(),
  gender: Type.Union([Type.Literal('male'), Type.Literal('female')]),
  accent: Type.String(),
  /** Credits per 1000 characters. */
  price: Type.Integer(),
  standard: Type.Boolean(),
  accent_approximated: Type.Boolean(),
});
export type Voice = Static<typeof VoiceSchema>;

/**
 * `transfer`: the remaining balance of a revoked studio key moved to the studio's new key at its
 * next sign-in (one entry, of the new key, naming the old one in `from_key_id`).
 */
export const LEDGER_KINDS = ['grant', 'charge', 'refund', 'transfer'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LedgerEntrySchema = Type.Object({
  kind: literals(LEDGER_KINDS),
  /** Credits, negative for a charge. Exact to 0.001. */
  amount: Type.Number(),
  balance_after: Type.Number(),
  request_id: Nullable(Type.String()),
  /** The key whose credits moved (a list of all keys mixes them). */
  key_id: Type.String(),
  /** A `transfer`'s source: the revoked studio key whose balance moved to `key_id` (left at 0); else null. */
  from_key_id: Nullable(Type.String()),
  created_at: Type.String(),
});
export type LedgerEntry = Static<typeof LedgerEntrySchema>;

/** Query of GET /api/v1/usage: a page of the ledger (and key: the studio's). */
export const UsageQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  key: Type.Optional(KeyFilterSchema),
});
export type UsageQuery = Static<typeof UsageQuerySchema>;

/** GET /api/v1/usage. */
export const UsageSchema = Type.Object({
  /** Credits, exact to 0.001 (with key=all: every live key's together). */
  balance: Type.Number(),
  /** The same in integer milli-credits. */
  balance_milli: Type.Integer(),
  /** Requests waiting or running for this key (with key=all: for every key). */
  queued: Type.Integer(),
  /** Newest first. */
  ledger: Type.Array(LedgerEntrySchema),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer(),
});
export type Usage = Static<typeof UsageSchema>;

/** Data of the server-sent events of GET /api/v1/events (event names `request` and `delivery`). */
export const RequestEventSchema = Type.Object({
  request_id: Type.String(),
  status: literals(REQUEST_STATUSES),
  /** Percentage done, 0–100, as in the request detail. */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
});
export type RequestEvent = Static<typeof RequestEventSchema>;

export const DeliveryEventSchema = Type.Object({
  request_id: Type.String(),
  attempt: Type.Integer(),
  status_code: Nullable(Type.Integer()),
  result: Type.String(),
  result_code: literals(CALLBACK_RESULT_CODES),
  created_at: Type.String(),
  callback_state: literals(CALLBACK_STATES),
});
export type DeliveryEvent = Static<typeof DeliveryEventSchema>;

/** Body of the OpenAI-compatible POST /v1/audio/speech. */
export const OpenAiSpeechRequestSchema = Type.Object({
  /** Absent: `kokoro`, Kokoro-FastAPI's default (its web player and README leave it out). */
  model: Type.Optional(Type.String()),
  input: Type.String(),
  /**
   * An OpenAI voice name (alloy, echo, nova, …), one of our voice codes or a Kokoro name or mix;
   * or `{ id }` with either. Absent: `af_heart`, Kokoro-FastAPI's default.
   */
  voice: Type.Optional(Type.Union([Type.String(), Type.Object({ id: Type.String() })])),
  response_format: Type.Optional(literals(AUDIO_FORMATS)),
  /** OpenAI's 0.25–4.0; clamped to our 0.5–2.0 and rounded to one decimal. */
  speed: Type.Optional(Type.Number({ minimum: 0.25, maximum: 4 })),
  /** Accepted for compatibility; our voices have no instruction-following, so it changes nothing. */
  instructions: Type.Optional(Type.String({ maxLength: 4096 })),
  /** `audio` (default): the encoded file, streamed as it renders; `sse`: OpenAI's events with base64 audio. */
  stream_format: Type.Optional(Type.Union([Type.Literal('audio'), Type.Literal('sse')])),
  /**
   * Kokoro-FastAPI's fields. `stream` (default true) changes nothing on /v1/audio/speech (the
   * audio is always streamed as it renders); on /dev/captioned_speech it picks one JSON answer
   * or a line of JSON per piece. `return_download_link`: an `X-Download-Path` header naming
   * the finished file under `/v1`. `return_timestamps` (captioned speech, default true).
   */
  stream: Type.Optional(Type.Boolean()),
  return_download_link: Type.Optional(Type.Boolean()),
  return_timestamps: Type.Optional(Type.Boolean()),
});

/** Kokoro-FastAPI's `WordTimestamp` (POST /dev/captioned_speech): a word and its times in seconds. */
export const WordTimestampSchema = Type.Object({
  word: Type.String(),
  start_time: Type.Number(),
  end_time: Type.Number(),
});
export type WordTimestamp = Static<typeof WordTimestampSchema>;

/**
 * Kokoro-FastAPI's captioned speech: the whole answer with `stream: false`, or one such object
 * per line (`application/json`, newline-delimited) with `stream: true`, the words in the last.
 */
export const CaptionedSpeechSchema = Type.Object({
  /** The audio (`response_format`), base64. */
  audio: Type.String(),
  /** Its content type, e.g. `audio/mpeg`. */
  audio_format: Type.String(),
  /** The words' times; null with `return_timestamps: false`, empty in a stream's audio lines. */
  timestamps: Nullable(Type.Array(WordTimestampSchema)),
});
export type CaptionedSpeech = Static<typeof CaptionedSpeechSchema>;

/** Every failure under /v1, in OpenAI's shape (`param` names the field, `code` is our error code). */
export const OpenAiErrorBodySchema = Type.Object({
  error: Type.Object({
    message: Type.String(),
    type: Type.Union([
      Type.Literal('invalid_request_error'),
      Type.Literal('authentication_error'),
      Type.Literal('insufficient_quota'),
      Type.Literal('server_error'),
    ]),
    param: Nullable(Type.String()),
    code: Type.String(),
  }),
});
export type OpenAiErrorBody = Static<typeof OpenAiErrorBodySchema>;

/** OpenAI's model list (GET /v1/models), for apps that pick a model from it. */
export interface OpenAiModel {
  id: string;
  object: 'model';
  /** Unix seconds. */
  created: number;
  owned_by: string;
}
export type OpenAiSpeechRequest = Static<typeof OpenAiSpeechRequestSchema>;

// ---------------------------------------------------------------------------------------
// Studio UI (session-only routes: a signed-in browser session, never a bearer key)

/** An API key as the studio lists it (GET /api/v1/keys); the key itself is never stored. */
export const ApiKeyInfoSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** First characters of the key, to recognise it. */
  prefix: Type.String(),
  /** Credits, exact to 0.001. */
  balance: Type.Number(),
  queued: Type.Integer(),
  /** Verifies the X-Narration-Signature header of this key's callbacks. */
  signing_secret: Type.String(),
  created_at: Type.String(),
  revoked_at: Nullable(Type.String()),
  /** The studio's own key: revoked, its balance moves to the studio's next key at the next sign-in. */
  studio: Type.Boolean(),
});
export type ApiKeyInfo = Static<typeof ApiKeyInfoSchema>;

/** Body of POST /api/v1/keys. */
export const CreateKeyBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type CreateKeyBody = Static<typeof CreateKeyBodySchema>;

/** Body of POST /api/v1/keys/<id>/credits: whole credits to add (1 to 1,000,000,000). */
export const AddCreditsBodySchema = Type.Object({
  credits: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
});
export type AddCreditsBody = Static<typeof AddCreditsBodySchema>;

/** Result of POST /api/v1/keys: the full key, shown once. */
export const CreatedKeySchema = Type.Object({ key: Type.String(), info: ApiKeyInfoSchema });
export type CreatedKey = Static<typeof CreatedKeySchema>;

/**
 * The studio's per-session value: the sign-in answers it, the page keeps it in its own origin's
 * storage and sends it in this header on every call; the session cookie alone is refused.
 */
export const STUDIO_SESSION_HEADER = 'x-studio-session';
/**
 * The same value in the query, accepted only by the GET addresses an audio element plays (it
 * cannot send headers): the auditions and lexicon previews.
 */
export const STUDIO_SESSION_QUERY = 'studio_session';

/** Body of POST /api/v1/session/sign-in: the token of a sign-in address (`/?token=…`). */
export const StudioSignInBodySchema = Type.Object({ token: Type.String({ maxLength: 200 }) });
export type StudioSignInBody = Static<typeof StudioSignInBodySchema>;

/** Result of POST /api/v1/session/sign-in (the session cookie comes with it). */
export const StudioSignInSchema = Type.Object({
  /** Sent as the `X-Studio-Session` header on every call of the session. */
  session: Type.String(),
  /** The session ends after this many seconds without a call. */
  idle_timeout_s: Type.Integer(),
});
export type StudioSignIn = Static<typeof StudioSignInSchema>;

/** GET /api/v1/session: who the signed-in studio acts as. */
export const SessionInfoSchema = Type.Object({
  /** The key the studio submits with (the --api-key key, else the oldest live key). */
  key: ApiKeyInfoSchema,
  /** Base URL of this server, e.g. http://127.0.0.1:8787 */
  base_url: Type.String(),
  /** The server's data directory (database and audio files), when known. */
  data_dir: Nullable(Type.String()),
});
export type SessionInfo = Static<typeof SessionInfoSchema>;

/** Body of POST /api/v1/voices/<code>/audition (all optional; defaults 1.0, 1.0, 100). */
export const AuditionBodySchema = Type.Object({
  text: Type.Optional(Type.String({ maxLength: 300 })),
  speed_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  pitch_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  volume: Type.Optional(Type.Integer({ minimum: VOLUME_MIN, maximum: VOLUME_MAX })),
});
export type AuditionBody = Static<typeof AuditionBodySchema>;

/**
 * GET /api/public/v1/voices: the voice list in the service's published shape (its API
 * collection's "List voices"), which its clients page through. Query: `limit` (1–100, default
 * 20), `cursor` (a next_cursor or prev_cursor of an earlier page), filters `code`,
 * `language_code` (also `languageCode`), `gender`; `voice_ownership` is accepted and ignored.
 */
export const PublicVoiceSchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  gender: literals(['male', 'female'] as const),
  /** BCP 47, as the service writes them: vi-VN, en-US, en-GB, cmn-CN, … */
  language_code: Type.String(),
  /** Credits per character of input (the voice's price per 1000 characters / 1000). */
  credit_factor: Type.Number(),
  /** A sample's address: null here (auditions need the studio's session or a key). */
  demo: Nullable(Type.String()),
});
export type PublicVoice = Static<typeof PublicVoiceSchema>;

export const PublicVoiceListSchema = Type.Object({
  pagination: Type.Object({
    has_next_page: Type.Boolean(),
    has_prev_page: Type.Boolean(),
    next_cursor: Nullable(Type.String()),
    prev_cursor: Nullable(Type.String()),
  }),
  voices: Type.Array(PublicVoiceSchema),
});
export type PublicVoiceList = Static<typeof PublicVoiceListSchema>;

/** GET and PUT /api/v1/settings (session only): the server settings of the shared settings file. */
export const ServerSettingsSchema = Type.Object({
  /** Port for the next start; 0 picks a free one each run. */
  port: PortSchema,
  /** Data folder for the next start; null means the per-user app data folder. */
  data_dir: Nullable(Type.String()),
  /**
   * Desktop app: closing the window keeps the local API running in the tray (true) or quits
   * (false); null: the OS's default (Linux quits; macOS and Windows keep running). Applies at once.
   */
  keep_running_when_closed: Nullable(Type.Boolean()),
  /** A voice_code that is not ours, from the next start: refused, or spoken by the closest voice. */
  unknown_voices: UnknownVoicePolicySchema,
  /** Exact mappings from the next start: a client's voice code → one of our voice codes. */
  voice_aliases: VoiceAliasesSchema,
  /**
   * Origins of other sites' pages and of browser extensions that may call the API with a key,
   * from the next start (`serve --allow-origin`).
   */
  allowed_origins: Type.Array(Type.String()),
  /**
   * The studio's first-run offer of natural voices: `pending` until answered (the studio offers
   * it), then `accepted` or `skipped` (never offered again). Applies at once.
   */
  first_run_voice_offer: FirstRunVoiceOfferSchema,
  /** What this run uses. */
  running_port: Type.Integer(),
  running_data_dir: Nullable(Type.String()),
  running_unknown_voices: UnknownVoicePolicySchema,
  running_voice_aliases: VoiceAliasesSchema,
  running_allowed_origins: Type.Array(Type.String()),
  /** True when the stored values differ from the running ones: they apply at the next start. */
  restart_required: Type.Boolean(),
  /** The settings file, for messages. */
  settings_file: Type.String(),
});
export type ServerSettings = Static<typeof ServerSettingsSchema>;

/**
 * Body of PUT /api/v1/settings: any field may be left out; null resets data_dir or
 * keep_running_when_closed to its default. voice_aliases replaces the whole table. The
 * rules are the Settings view's (see `checkServerSettings`).
 */
export const UpdateServerSettingsBodySchema = Type.Object(
  {
    port: Type.Optional(PortSchema),
    data_dir: Type.Optional(Nullable(AbsolutePathSchema)),
    keep_running_when_closed: Type.Optional(Nullable(Type.Boolean())),
    unknown_voices: Type.Optional(UnknownVoicePolicySchema),
    /** The whole table (it replaces the stored one). */
    voice_aliases: Type.Optional(VoiceAliasesSchema),
    /** Each checked by `checkAllowedOrigin` and stored in its normal form. */
    allowed_origins: Type.Optional(AllowedOriginsSchema),
    /** The answer to the first-run offer of natural voices (`pending` offers it again). */
    first_run_voice_offer: Type.Optional(FirstRunVoiceOfferSchema),
  },
  { additionalProperties: false },
);
export type UpdateServerSettingsBody = Static<typeof UpdateServerSettingsBodySchema>;

// ---------------------------------------------------------------------------------------
// The reading of a text (POST /api/v1/reading)

/**
 * Characters (Unicode code points, as input_text is counted) of the text of
 * POST /api/v1/reading at most: a long chapter. Its body limit follows (server/body-limits.ts).
 */
export const READING_MAX_CHARS = 200_000;

/**
 * The classes of written text a rule of the text stage reads (the engine's `RuleName`,
 * engine/text/rule-kit.ts; the reading route checks at compile time that every rule name is one
 * of these). The studio names each in its language.
 */
export const READING_RULES = [
  'cardinal',
  'decimal',
  'ordinal',
  'date',
  'time',
  'duration',
  'money',
  'percent',
  'measure',
  'telephone',
  'range',
  'fraction',
  'roman',
  'score',
  'version',
  'abbreviation',
  'acronym',
  'email',
  'url',
  'symbol',
  'markup',
  'emoji',
] as const;
export type ReadingRule = (typeof READING_RULES)[number];

/** How an ambiguous numeric date like 05/06/2026 is read in English: month first or day first. */
export const DATE_ORDERS = ['mdy', 'dmy'] as const;

/**
 * Body of POST /api/v1/reading: a text and the voice (its language, and a custom voice's own
 * lexicon) or the language it is read in. One of voice_code and language is needed; with both,
 * the voice must speak that language.
 */
export const ReadingRequestSchema = Type.Object({
  /** Plain text (SSML markup is read as text). */
  text: Type.String(),
  voice_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  language: Type.Optional(literals(LANGUAGE_CODES)),
  /** English only (default 'mdy'): see DATE_ORDERS. */
  date_order: Type.Optional(literals(DATE_ORDERS)),
});
export type ReadingRequest = Static<typeof ReadingRequestSchema>;

/** One place where the reading differs from the text. */
export const ReadingChangeSchema = Type.Object({
  /** UTF-16 code-unit offsets of the written part in the text (JavaScript's string indices). */
  from: Type.Integer({ minimum: 0 }),
  to: Type.Integer({ minimum: 0 }),
  /** The text as written there. */
  written: Type.String(),
  /** What is said instead (a lexicon entry's IPA as eSpeak phonemes in `[[ ]]`). */
  spoken: Type.String(),
  /** An entry of the user's lexicon, or a rule of the language. */
  source: literals(['lexicon', 'rule'] as const),
  /** The rule's class; null for a lexicon entry. */
  rule: Nullable(literals(READING_RULES)),
});
export type ReadingChange = Static<typeof ReadingChangeSchema>;

/** Result of POST /api/v1/reading. */
export const ReadingSchema = Type.Object({
  language: literals(LANGUAGE_CODES),
  /** The voice_code sent, when one was. */
  voice_code: Type.Optional(Type.String()),
  /**
   * Present only when the server cleaned the text before reading it, as a render does (Unicode
   * NFC, line ends, control characters): the text the offsets are of. Absent: they are of the
   * text sent.
   */
  text: Type.Optional(Type.String()),
  /** The whole text as the engine reads it. */
  reading: Type.String(),
  /** In text order, not overlapping. */
  changes: Type.Array(ReadingChangeSchema),
});
export type Reading = Static<typeof ReadingSchema>;
