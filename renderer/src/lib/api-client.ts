/**
 * The one typed client of the local API (ARCHITECTURE.md): the studio reaches jobs, voices,
 * history and keys only through it. In the browser it authenticates as the signed-in studio:
 * the session cookie set at sign-in, plus the session's value, kept in this origin's storage
 * and sent in the X-Studio-Session header (the cookie alone is refused: browsers send it to
 * every port of 127.0.0.1). Other callers (tests, scripts) pass an API key.
 */

import type {
  ApiKeyInfo,
  AuditionBody,
  CallbackAttemptList,
  CreatedKey,
  DeliveryEvent,
  ErrorBody,
  ErrorDetails,
  Reading,
  ReadingRequest,
  RequestDetail,
  RequestEvent,
  RequestList,
  RequestListQuery,
  RequestRecord,
  ServerSettings,
  SessionInfo,
  StudioSignIn,
  TtsRequest,
  UpdateServerSettingsBody,
  Usage,
  Voice,
} from '../../../electron/shared/api';
import { STUDIO_SESSION_HEADER, STUDIO_SESSION_QUERY } from '../../../electron/shared/api';
import type { CustomVoice, CustomVoiceInput } from '../../../electron/shared/custom-voices';
import type {
  ExportBody,
  ExportEvent,
  ExportList,
  ExportRecord,
  ExportRemoval,
  RequestChapters,
} from '../../../electron/shared/book-exports';
import type { ErrorCode } from '../../../electron/shared/errors';
import type { ManuscriptReadResult } from '../../../electron/shared/manuscript-read';
import type { ProjectEvent } from '../../../electron/shared/projects';
import type { SentenceCacheStats } from '../../../electron/shared/sentence-cache';
import type {
  Lexicon,
  LexiconChange,
  LexiconEntryInput,
  LexiconExportQuery,
  LexiconImportBody,
  LexiconImportResult,
  LexiconPreviewBody,
  LexiconQuery,
  LexiconRemoval,
} from '../../../electron/shared/lexicon';
import type {
  AssignVoiceBody,
  AssignVoiceResult,
  VoicePackEvent,
  VoicePackInfo,
  VoicePackList,
} from '../../../electron/shared/voice-packs';
import { describeBrowserError, describeError } from '../i18n/error-messages';
import { currentIntl } from './intl-text';
import { accountMethods } from './api-client-account';
import { bookMethods } from './api-client-books';
import { streamEvents } from './api-client-events';
import { lexiconMethods } from './api-client-lexicon';
import { requestMethods } from './api-client-requests';
import { voiceMethods } from './api-client-voices';

/** A failed call: the API's error code and sentence, or NETWORK when the server did not answer. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'NETWORK' | 'BAD_RESPONSE',
    message: string,
    /** HTTP status; 0 when there was no answer. */
    readonly status: number,
    /** The error's particulars (`error_details`), which the studio words in its language. */
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  /**
   * Server base URL; '' (default) means the page's own origin. The studio passes
   * `studioBase(document.baseURI)`, so that it also works under a reverse proxy's sub-path.
   */
  baseUrl?: string;
  /** Sent as a bearer key; omit in the browser to use the session cookie. */
  apiKey?: string;
  /** Extra headers on every call (tests pass a cookie here). */
  headers?: Record<string, string>;
  /**
   * Where the studio session's value is kept (localStorage in the browser: this origin's own,
   * which pages of other ports cannot read); sent with every call made without `apiKey`.
   */
  sessionStorage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  fetch?: typeof fetch;
}

/**
 * The base of the API for a page at `pageUrl` (the studio's `document.baseURI`): the folder the
 * page was loaded from, without its trailing slash: `''` for `http://host/`, `/tts` for
 * `http://host/tts/?token=…` (the studio behind `location /tts/ { proxy_pass …/; }`). A path,
 * not an origin: calls stay same-origin whatever name the page was opened under.
 */
export function studioBase(pageUrl: string): string {
  return new URL('.', pageUrl).pathname.replace(/\/+$/, '');
}

/** The studio's whole address for a page at `pageUrl`: `http://host/tts` (origin and `studioBase`). */
export function studioUrl(pageUrl: string): string {
  return `${new URL(pageUrl).origin}${studioBase(pageUrl)}`;
}

/** The key of the studio session's value in `sessionStorage`. */
export const SESSION_STORAGE_KEY = 'narration-studio.session';

export interface ApiClient {
  readonly baseUrl: string;
  /** Spends the token of a sign-in address; keeps the session's value for the next calls. */
  signIn(token: string): Promise<StudioSignIn>;
  /** Ends the session on the server and forgets its value. */
  signOut(): Promise<void>;
  /**
   * Calls `listener` whenever a call is refused with 401: the session ended (idle, signed out,
   * server restarted). The one place the studio notices it (the session slice listens), so
   * callers only show the error. Sign-in and sign-out themselves do not report. Returns the
   * function that stops listening.
   */
  onSignedOut(listener: () => void): () => void;
  session(): Promise<SessionInfo>;
  voices(): Promise<Voice[]>;
  submit(request: TtsRequest): Promise<RequestRecord>;
  request(id: string): Promise<RequestDetail>;
  listRequests(query?: Partial<Record<keyof RequestListQuery, string | number>>): Promise<RequestList>;
  /** Cancels a queued or running request (FAILURE with CANCELLED, refunded); a finished one is unchanged. */
  cancel(id: string): Promise<RequestDetail>;
  /** The newest `limit` (1 to 100, default 20) delivery attempts of a request, newest first. */
  callbackAttempts(id: string, limit?: number): Promise<CallbackAttemptList>;
  retryCallback(id: string): Promise<RequestDetail>;
  /** A page of the ledger: the caller's key, or (studio only) `key`: a key's id or `all`. */
  usage(page?: number, pageSize?: number, key?: string): Promise<Usage>;
  keys(): Promise<ApiKeyInfo[]>;
  createKey(name?: string): Promise<CreatedKey>;
  revokeKey(id: string): Promise<ApiKeyInfo>;
  /** Gives the key a new signing secret: deliveries from now on are signed with it alone. */
  rotateSigningSecret(id: string): Promise<ApiKeyInfo>;
  /** Adds whole credits to a live key's balance (session only); the key as it is then. */
  addCredits(id: string, credits: number): Promise<ApiKeyInfo>;
  /** Port and data folder in the shared settings file, next to the running ones (session only). */
  serverSettings(): Promise<ServerSettings>;
  /** Saves port and/or data folder for the next start; the running server keeps its own. */
  updateServerSettings(body: UpdateServerSettingsBody): Promise<ServerSettings>;
  /** Size and counters of the engine's sentence cache. */
  sentenceCache(): Promise<SentenceCacheStats>;
  /** Empties the sentence cache (session only); resolves with the stats after. */
  clearSentenceCache(): Promise<SentenceCacheStats>;
  /** A short WAV of the voice; not charged. */
  audition(voiceCode: string, body?: AuditionBody, signal?: AbortSignal): Promise<Blob>;
  /**
   * Address of the same audition for an audio element (GET, the options in the query): it
   * streams, so playing starts with the first sentence. Works for the signed-in studio only:
   * the address carries the session's value, which an audio element cannot send as a header.
   */
  auditionUrl(voiceCode: string, body?: AuditionBody): string;
  /** Installed voice packs, the catalogue, and what speaks each voice code. */
  voicePacks(): Promise<VoicePackList>;
  /**
   * Address of a catalogue pack's sample recording (MP3) for an audio element, with the
   * session's value in the query like `auditionUrl`; fetched once by the server and kept.
   */
  voicePackSampleUrl(id: string, speaker?: number): string;
  /** The same sample as a Blob (its error says why it cannot be had). */
  voicePackSample(id: string, speaker?: number): Promise<Blob>;
  /** Starts downloading a catalogue pack (session only); progress arrives as `voice-pack` events. */
  installVoicePack(id: string): Promise<VoicePackInfo>;
  cancelVoicePack(id: string): Promise<VoicePackInfo>;
  /** Removes an installed pack; answers its catalogue state, or `removed` for an imported one. */
  removeVoicePack(id: string): Promise<VoicePackInfo | { id: string; state: 'removed' }>;
  /** Installs a pack from a .zip or .tar.gz file (session only). */
  importVoicePack(file: Blob, fileName: string): Promise<VoicePackInfo>;
  assignVoice(voiceCode: string, body: AssignVoiceBody): Promise<AssignVoiceResult>;
  /**
   * The user's own voices (a name and code over a base voice, with prosody and lexicon): every
   * one, read from GET /api/v1/custom-voices a page after another.
   */
  customVoices(): Promise<CustomVoice[]>;
  /** Creates one; CUSTOM_VOICE_CONFLICT (409) when the code is taken, INVALID_FIELD names a bad field. */
  createCustomVoice(input: CustomVoiceInput): Promise<CustomVoice>;
  /** Replaces one (`input.code` must be `code`); CUSTOM_VOICE_NOT_FOUND when it is gone. */
  updateCustomVoice(code: string, input: CustomVoiceInput): Promise<CustomVoice>;
  deleteCustomVoice(code: string): Promise<void>;
  /** A short WAV of a saved custom voice (its prosody multiplies the body's); not charged. */
  auditionCustomVoice(code: string, body?: AuditionBody, signal?: AbortSignal): Promise<Blob>;
  /** The same audition's address for an audio element, as `auditionUrl` (the signed-in studio only). */
  customVoiceAuditionUrl(code: string, body?: AuditionBody): string;
  /** The pronunciation lexicon (`version` grows with every change), filtered by language and search. */
  lexicon(query?: LexiconQuery): Promise<Lexicon>;
  /** Adds an entry (session only); INVALID_FIELD names what breaks a rule (e.g. an IPA symbol). */
  addLexiconEntry(entry: LexiconEntryInput): Promise<LexiconChange>;
  updateLexiconEntry(id: string, entry: LexiconEntryInput): Promise<LexiconChange>;
  removeLexiconEntry(id: string): Promise<LexiconRemoval>;
  /** Imports a JSON, CSV or PLS file's text (session only); LEXICON_FILE_INVALID says where it is wrong. */
  importLexicon(body: LexiconImportBody): Promise<LexiconImportResult>;
  /** The lexicon as a file (JSON, CSV or PLS), to save as a download. */
  lexiconExport(query?: LexiconExportQuery): Promise<Blob>;
  /**
   * Address of an entry's preview for an audio element (session only): a saved entry by id, or
   * a draft entry's fields; the match spoken with the entry (`variant: 'without'`: as read alone).
   */
  lexiconPreviewUrl(entry: string | LexiconEntryInput, body?: LexiconPreviewBody): string;
  /** The same preview as a WAV, for a caller that must see the API's error. */
  lexiconPreview(entry: string | LexiconEntryInput, body?: LexiconPreviewBody): Promise<Blob>;
  /** How a text will be read for a voice or a language: the words the voices get, and each change. */
  reading(body: ReadingRequest): Promise<Reading>;
  /** Where the chapters of a request's text start in its audio (empty without chapter lines). */
  requestChapters(id: string): Promise<RequestChapters>;
  /** Starts an audiobook export (charged now, refunded if it fails); progress arrives as `export` events. */
  startExport(body: ExportBody): Promise<ExportRecord>;
  exportRecord(id: string): Promise<ExportRecord>;
  /** The key's exports, newest first. */
  listExports(page?: number, pageSize?: number): Promise<ExportList>;
  /** Cancels a queued or running export (FAILURE with CANCELLED, refunded); a finished one is unchanged. */
  cancelExport(id: string): Promise<ExportRecord>;
  /** Removes an export and its files (cancelling it first if it runs). */
  removeExport(id: string): Promise<ExportRemoval>;
  /**
   * Reads a manuscript file (DOCX, EPUB, ODT, HTML, Markdown, text, PDF) into chapters and text
   * with `#` headings; MANUSCRIPT_INVALID, MANUSCRIPT_TOO_LARGE or UNSUPPORTED_MEDIA_TYPE say why not.
   */
  readManuscript(file: Blob, fileName: string): Promise<ManuscriptReadResult>;
  /** Text of a same-server download link (the SRT of a request). */
  fetchText(url: string): Promise<string>;
  /**
   * Follows the server-sent events of GET /api/v1/events until `signal` aborts. Resolves when
   * the stream ends (server closed or aborted); rejects with ApiError when it cannot connect.
   */
  streamEvents(handlers: EventHandlers, signal: AbortSignal): Promise<void>;
  /**
   * Any JSON route of the API (the `result` of its answer), for the typed clients of one area
   * (projects-api.ts); `raw` sends a file's bytes instead of a JSON body.
   */
  json<T>(method: HttpMethod, path: string, body?: unknown, raw?: { body: Blob; type: string }): Promise<T>;
  /** A route that answers a file (audio, a zip) or a JSON document that is not the API's envelope. */
  fetchBody(path: string, signal?: AbortSignal): Promise<Response>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EventHandlers {
  /** Called once the stream is open. */
  onOpen?(): void;
  onRequest?(event: RequestEvent): void;
  onDelivery?(event: DeliveryEvent): void;
  /** Audiobook exports: accepted, progress, finished. */
  onExport?(event: ExportEvent): void;
  /** Voice-pack installs (studio session only). */
  onVoicePack?(event: VoicePackEvent): void;
  /** Book projects: a render's progress and segments' new states. */
  onProject?(event: ProjectEvent): void;
}

/**
 * What the resource clients (api-client-*.ts) build on: authenticated calls in the API's error
 * shape, the addresses an audio element plays, and who hears that the session ended.
 */
export interface ApiTransport {
  baseUrl: string;
  /** One call; a refused one throws its ApiError. `raw` sends a file instead of JSON. */
  send: (
    method: HttpMethod,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
    raw?: { body: Blob; type: string },
    report?: boolean,
  ) => Promise<Response>;
  /** One call whose answer is the API's `{ status: 1, result }`: the result. */
  call: <T>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    raw?: { body: Blob; type: string },
    report?: boolean,
  ) => Promise<T>;
  /** `?a=1&b=2` of the defined, non-empty values ('' when none). */
  query: (values: object) => string;
  /** The query of an audio element's address: the options, and the session's value. */
  elementQuery: (values: object) => string;
  /** A file the server links to (subtitles), as text. */
  fetchText: (url: string) => Promise<string>;
  onSignedOut: (listener: () => void) => () => void;
  /** Keeps the session's value after sign-in (null: forgets it, at sign-out). */
  keepSession: (value: string | null) => void;
}

function createTransport(options: ApiClientOptions): ApiTransport {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const sessionValue = () =>
    options.apiKey ? null : (options.sessionStorage?.getItem(SESSION_STORAGE_KEY) ?? null);
  const signedOutListeners = new Set<() => void>();

  /** The API error of a refused call; tells the listeners when it means the session ended. */
  async function refusal(response: Response, report: boolean): Promise<ApiError> {
    const error = await toApiError(response);
    if (report && isSignedOut(error)) for (const listener of [...signedOutListeners]) listener();
    return error;
  }

  async function send(
    method: HttpMethod,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
    /** A raw body (a file) and its content type, instead of JSON. */
    raw?: { body: Blob; type: string },
    /** False for sign-in and sign-out: their 401 is not a session that ended. */
    report = true,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const session = sessionValue();
    if (session) headers[STUDIO_SESSION_HEADER] = session;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (raw) headers['content-type'] = raw.type;
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(raw ? { body: raw.body } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApiError('NETWORK', 'The studio server is not answering. Is it still running?', 0);
    }
    if (!response.ok) throw await refusal(response, report);
    return response;
  }

  async function call<T>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    raw?: { body: Blob; type: string },
    report = true,
  ): Promise<T> {
    const response = await send(method, path, body, undefined, raw, report);
    const json = (await response.json().catch(() => undefined)) as
      { status?: number; result?: T } | undefined;
    if (!json || json.status !== 1)
      throw new ApiError(
        'BAD_RESPONSE',
        'The server sent an answer the studio cannot read.',
        response.status,
      );
    return json.result as T;
  }

  const query = (values: object) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    return qs ? `?${qs}` : '';
  };
  /** The query of an audio element's address: the options, and the session's value. */
  const elementQuery = (values: object) => {
    const session = sessionValue();
    return query(session ? { ...values, [STUDIO_SESSION_QUERY]: session } : values);
  };
  return {
    baseUrl,
    send,
    call,
    query,
    elementQuery,
    fetchText: async (url) => {
      let response: Response;
      try {
        response = await doFetch(url, { credentials: 'same-origin' });
      } catch {
        throw new ApiError('NETWORK', 'The studio server is not answering. Is it still running?', 0);
      }
      if (!response.ok) throw await refusal(response, true);
      return response.text();
    },
    onSignedOut: (listener) => {
      signedOutListeners.add(listener);
      return () => void signedOutListeners.delete(listener);
    },
    keepSession: (value) => {
      if (value === null) options.sessionStorage?.removeItem(SESSION_STORAGE_KEY);
      else options.sessionStorage?.setItem(SESSION_STORAGE_KEY, value);
    },
  };
}

/** The client of the local API, composed of its resources' methods on one transport. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const transport = createTransport(options);
  return {
    baseUrl: transport.baseUrl,
    streamEvents: (handlers, signal) => streamEvents(transport, handlers, signal),
    json: (method, path, body, raw) => transport.call(method, path, body, raw),
    fetchBody: (path, signal) => transport.send('GET', path, undefined, signal),
    fetchText: (url) => transport.fetchText(url),
    ...accountMethods(transport),
    ...requestMethods(transport),
    ...bookMethods(transport),
    ...voiceMethods(transport),
    ...lexiconMethods(transport),
  };
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<ErrorBody>;
    if (body.status === 0 && body.error_code && body.error_message) {
      return new ApiError(body.error_code, body.error_message, response.status, body.error_details);
    }
  } catch {
    // Not the API's error body: fall through to a plain sentence.
  }
  return new ApiError('BAD_RESPONSE', `The server answered HTTP ${response.status}.`, response.status);
}

/** True when the error means "not signed in" (no or expired session). */
export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** A sentence for the user from anything thrown, in the interface's language for API errors. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return describeError(currentIntl(), error);
  return describeBrowserError(currentIntl(), error);
}
