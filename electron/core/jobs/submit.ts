/**
 * Accepting requests: charge and insert in one transaction, committed (fsynced) before the
 * caller hears back. Concurrent submits are grouped (group commit): one transaction commits at
 * a time, and the submits that arrive meanwhile go into the next, written in a few multi-row
 * statements. So durability does not cap throughput at one fsync per request, nor a shared
 * database at a few round trips per request. While clients are still connecting, a batch waits
 * for their submits a little (BURST_HOLD_MS), which keeps a burst of new connections from
 * queueing behind the first ones' answers.
 * A submit with an Idempotency-Key looks its key up and records it in that same transaction
 * (see idempotency.ts), so a request is never stored without its key row or the reverse.
 */

import { randomBytes } from 'node:crypto';
import { AppError } from '../../shared/errors';
import type { AudioFormat, Bitrate, ModelId } from '../../shared/options';
import { findVoice } from '../../shared/voices';
import type { IdempotencyRow, KeyRow, NewRequestRow, Repos, RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import { costMilli } from '../../shared/pricing';
import { chargeInBatch, liveKeyToCharge, type NewLedgerRow } from './credits';
import { IDEMPOTENCY_WINDOW_MS, type Idempotency } from './idempotency';

/** A validated request, ready to be accepted. */
export interface SubmitInput {
  keyId: string;
  source: 'api' | 'openai';
  /** As the caller sent it; the engine cleans it. */
  text: string;
  /** Billable count of the cleaned text. */
  characters: number;
  /** As the caller sent it: one of our codes, or a code mapped by `spoken`. */
  voice_code: string;
  /** Our voice that speaks a `voice_code` that is not ours, and how it was found. */
  spoken?: { voice_code: string; match: 'alias' | 'closest' | 'custom' };
  /** A custom voice's definition as accepted (JSON of CustomVoice; RequestRow.custom_voice). */
  custom_voice?: string | null;
  model_id: ModelId;
  audio_type: AudioFormat;
  bitrate: Bitrate;
  speed_rate: number;
  pitch_rate: number;
  volume: number;
  generate_srt: boolean;
  callback_url: string | null;
  /** A Kokoro voice or mix to speak with when a Kokoro pack holds it (RequestRow.kokoro_voice). */
  kokoro_voice?: string | null;
  /** Keep the render's word timings for the answer (POST /dev/captioned_speech). */
  word_timings?: boolean;
}

/** What an idempotent submit resolves with. */
export interface SubmitOutcome {
  row: RequestRow;
  /**
   * True when the key was already used for this request within 24 h: `row` is the request
   * that first submit created, nothing was stored or charged this time.
   */
  replayed: boolean;
}

export interface Submitter {
  /**
   * Resolves with the stored row once committed. Rejects with AppError INSUFFICIENT_CREDITS,
   * TOO_MANY_REQUESTS, UNAUTHORIZED (key revoked meanwhile) or SHUTTING_DOWN.
   */
  submit(input: SubmitInput): Promise<RequestRow>;
  /**
   * `submit` under an Idempotency-Key (none: a plain submit). The key's first use within 24 h
   * stores the request and the key together; a later use with the same `requestHash` resolves
   * with that request (`replayed`), with another hash rejects with IDEMPOTENCY_KEY_REUSED. A
   * refused submit (credits, queue limit) records no key, so it can be sent again later.
   */
  submitIdempotent(input: SubmitInput, idempotency: Idempotency | undefined): Promise<SubmitOutcome>;
  /**
   * A client has just connected: its submit is likely on its way. The next batch waits for it
   * (see BURST_HOLD_MS).
   */
  noteConnection(): void;
  /** Commits what is pending; later submits reject with SHUTTING_DOWN. */
  close(): Promise<void>;
}

export interface SubmitterOptions {
  store: Store;
  clock: Clock;
  /** Requests of one key in status new or processing, at most. */
  maxQueuedPerKey: number;
  /** Called after each commit with the accepted rows. */
  onAccepted(rows: RequestRow[]): void;
}

interface Pending {
  input: SubmitInput;
  idempotency: Idempotency | undefined;
  resolve(outcome: SubmitOutcome): void;
  reject(error: unknown): void;
}

/** A submit's outcome within its batch: a new or replayed request of the batch, or a stored one. */
type Decision = { requestId: string; replayed: boolean } | SubmitOutcome;

/** What a batch writes, gathered while its submits are decided, and its keys as they will stand. */
interface BatchWrites {
  /** The batch's keys (locked), their balance and queue updated as submits are accepted. */
  keys: Map<string, KeyRow>;
  /** The balance and queue of each key before the batch, to write the differences. */
  before: Map<string, { balance_milli: number; queued: number }>;
  requests: NewRequestRow[];
  ledger: NewLedgerRow[];
  /** By API key and idempotency key. */
  idempotency: Map<string, IdempotencyRow>;
}

function newBatchWrites(keys: readonly KeyRow[]): BatchWrites {
  return {
    keys: new Map(keys.map((k) => [k.id, { ...k }])),
    before: new Map(keys.map((k) => [k.id, { balance_milli: k.balance_milli, queued: k.queued }])),
    requests: [],
    ledger: [],
    idempotency: new Map(),
  };
}

/**
 * The batch's writes in a few statements, whatever its size (PostgreSQL answers each statement
 * over the network): the requests, the ledger, the idempotency keys, one update per key.
 * Resolves with the stored requests by id.
 */
async function writeBatch(tx: Repos, batch: BatchWrites): Promise<Map<string, RequestRow>> {
  if (batch.requests.length === 0) return new Map();
  const stored = await tx.requests.insertMany(batch.requests);
  await tx.ledger.insertMany(batch.ledger);
  if (batch.idempotency.size > 0) await tx.idempotency.putMany([...batch.idempotency.values()]);
  for (const [id, key] of batch.keys) {
    const before = batch.before.get(id)!;
    const queued = key.queued - before.queued;
    if (queued !== 0) await tx.keys.adjust(id, key.balance_milli - before.balance_milli, queued);
  }
  return new Map(stored.map((row) => [row.id, row]));
}

/** Expired idempotency keys are deleted at most this often (inside a submit's transaction). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * 32 lowercase hex digits: the time in ms (12 digits), then 80 random bits. Ids made one after
 * another sort one after another, so each insert lands at the end of the id index instead of
 * on a page of its own (SQLite writes every page a commit touched to the WAL; a random id cost
 * a page per request).
 */
export function newRequestId(now = Date.now()): string {
  return now.toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
}

/** The row of an accepted submit: what the caller asked for, its id, key, cost and time. */
function newRequestRow(
  input: SubmitInput,
  at: { id: string; keyId: string; cost: number; now: string },
): NewRequestRow {
  return {
    id: at.id,
    key_id: at.keyId,
    source: input.source,
    input_text: input.text,
    characters: input.characters,
    voice_code: input.voice_code,
    ...(input.spoken ? { spoken_voice_code: input.spoken.voice_code, voice_match: input.spoken.match } : {}),
    model_id: input.model_id,
    audio_type: input.audio_type,
    bitrate: input.bitrate,
    speed_rate: input.speed_rate,
    pitch_rate: input.pitch_rate,
    volume: input.volume,
    generate_srt: input.generate_srt ? 1 : 0,
    callback_url: input.callback_url,
    kokoro_voice: input.kokoro_voice ?? null,
    custom_voice: input.custom_voice ?? null,
    word_timings: input.word_timings ? 1 : 0,
    cost_milli: at.cost,
    download_token: randomBytes(24).toString('base64url'),
    created_at: at.now,
  };
}

/**
 * How long a batch may wait, at most, for the submits of clients that are still connecting.
 * Node (libuv since 1.45) accepts one connection per turn of the event loop, and a turn lasts as
 * long as the work of every request that arrived in it. When 50 clients connect at once, the
 * first ones accepted were answered, sent again, and filled the turns in which the others waited
 * to be accepted: the last was accepted 180–500 ms after the first (strace: one accept4 per
 * epoll_wait). So while a client connected since the last turn, the batch waits one more turn
 * (about 0.2–0.5 ms while nothing is answered), until everyone is in or this long has passed
 * since the batch's first submit. 40 ms measured best against 15, 25, 30 and 60 (docs/BENCHMARKS.md).
 */
const BURST_HOLD_MS = 40;

/** When the submitter's batches go (see BURST_HOLD_MS). */
interface FlushScheduler {
  /** The batch got its first submit. */
  started(): void;
  /** Asks for a flush: in this turn's check phase, or later while clients are connecting. */
  schedule(): void;
  noteConnection(): void;
}

/** `flush` runs in a turn's check phase, once asked; while `committing()`, the commit asks again. */
function scheduleFlushes(flush: () => void, committing: () => boolean): FlushScheduler {
  let scheduled = false;
  /** When the batch's first submit arrived (performance.now()). */
  let since = 0;
  let connections = 0;
  let connectionsSeen = 0;
  const tick = () => {
    const connecting = connections !== connectionsSeen;
    connectionsSeen = connections;
    if (!committing() && connecting && performance.now() - since < BURST_HOLD_MS) {
      setImmediate(tick);
      return;
    }
    scheduled = false;
    if (!committing()) flush();
  };
  return {
    started: () => (since = performance.now()),
    schedule() {
      if (scheduled) return;
      scheduled = true;
      setImmediate(tick);
    },
    noteConnection: () => connections++,
  };
}

export function createSubmitter({ store, clock, maxQueuedPerKey, onAccepted }: SubmitterOptions): Submitter {
  let batch: Pending[] = [];
  let closed = false;
  let prunedAt = Number.NEGATIVE_INFINITY;

  /**
   * The batch being committed. One at a time: the submits that arrive meanwhile gather into the
   * next batch, so under load the batches grow instead of queueing for the key's balance row
   * one small transaction after another.
   */
  let committing: Promise<void> | undefined;

  const flush = (): Promise<void> => {
    if (committing) return committing;
    const items = batch;
    batch = [];
    if (items.length === 0) return Promise.resolve();
    committing = commit(items).finally(() => {
      committing = undefined;
      if (batch.length > 0) flushes.schedule();
    });
    return committing;
  };
  const flushes = scheduleFlushes(
    () => void flush(),
    () => committing !== undefined,
  );

  /** One transaction for the batch; never rejects (each submit hears its own outcome). */
  const commit = async (items: Pending[]): Promise<void> => {
    let outcomes: (SubmitOutcome | { error: unknown })[] = [];
    try {
      await store.transaction(async (tx) => {
        // Run again from scratch if PostgreSQL retries the transaction.
        // Balance rows in one order, so two batches charging the same keys cannot deadlock.
        const keys = await tx.keys.lockForUpdate(items.map((item) => item.input.keyId));
        await pruneExpiredKeys(tx);
        const batch = newBatchWrites(keys);
        const decided: (Decision | { error: unknown })[] = [];
        for (const item of items) {
          try {
            decided.push(await decide(tx, batch, item.input, item.idempotency));
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            // Refusals are decided before any write of that item, so the batch stays consistent.
            decided.push({ error });
          }
        }
        const stored = await writeBatch(tx, batch);
        outcomes = decided.map((d) =>
          'error' in d
            ? d
            : { row: 'requestId' in d ? stored.get(d.requestId)! : d.row, replayed: d.replayed },
        );
      });
    } catch (error) {
      for (const item of items) item.reject(error);
      return;
    }
    const accepted: RequestRow[] = [];
    items.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('row' in outcome) {
        if (!outcome.replayed) accepted.push(outcome.row);
        item.resolve(outcome);
      } else item.reject(outcome.error);
    });
    if (accepted.length > 0) onAccepted(accepted);
  };

  const pruneExpiredKeys = async (tx: Repos) => {
    const now = clock.now();
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    await tx.idempotency.deleteCreatedBefore(isoTime(now - IDEMPOTENCY_WINDOW_MS));
  };

  /**
   * The request an earlier submit with this key created, when the key is still honoured: one
   * stored before, or one of this batch.
   */
  const replayOf = async (
    tx: Repos,
    batch: BatchWrites,
    keyId: string,
    idempotency: Idempotency,
  ): Promise<Decision | undefined> => {
    const inBatch = batch.idempotency.get(`${keyId}\n${idempotency.key}`);
    const previous = inBatch ?? (await tx.idempotency.find(keyId, idempotency.key));
    // ISO times of one format compare as strings.
    if (!previous || previous.created_at <= isoTime(clock.now() - IDEMPOTENCY_WINDOW_MS)) return undefined;
    if (previous.request_hash !== idempotency.requestHash) {
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        `Idempotency-Key "${idempotency.key}" was used within the last 24 hours for a different request (${previous.request_id}); use a new key for a new request.`,
        { field: 'Idempotency-Key', request_id: previous.request_id },
      );
    }
    if (inBatch) return { requestId: inBatch.request_id, replayed: true };
    const row = await tx.requests.get(previous.request_id);
    return row && { row, replayed: true };
  };

  /**
   * Accepts or refuses one submit against the batch's view of its key (balance and queue as
   * the earlier submits of the batch left them); what to write is added to `batch`.
   */
  const decide = async (
    tx: Repos,
    batch: BatchWrites,
    input: SubmitInput,
    idempotency: Idempotency | undefined,
  ): Promise<Decision> => {
    const key = liveKeyToCharge(batch.keys.get(input.keyId));
    if (idempotency) {
      const replayed = await replayOf(tx, batch, key.id, idempotency);
      if (replayed) return replayed;
    }
    const voice = findVoice(input.spoken?.voice_code ?? input.voice_code);
    if (!voice)
      throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${input.voice_code}".`, {
        voice_code: input.voice_code,
      });
    if (key.queued >= maxQueuedPerKey) {
      throw new AppError(
        'TOO_MANY_REQUESTS',
        `This key already has ${key.queued} requests waiting or running (limit ${maxQueuedPerKey}). Retry when some finish.`,
        // Sent as Retry-After: the queue drains by several requests a second.
        { retry_after_s: 1 },
      );
    }
    const cost = costMilli(input.characters, voice, input.model_id);
    const now = isoTime(clock.now());
    const id = newRequestId();
    batch.ledger.push(chargeInBatch(key, id, cost, 'request', now));
    batch.requests.push(newRequestRow(input, { id, keyId: key.id, cost, now }));
    key.queued += 1;
    if (idempotency) {
      batch.idempotency.set(`${key.id}\n${idempotency.key}`, {
        key_id: key.id,
        idem_key: idempotency.key,
        request_hash: idempotency.requestHash,
        request_id: id,
        created_at: now,
      });
    }
    return { requestId: id, replayed: false };
  };

  const enqueue = (input: SubmitInput, idempotency: Idempotency | undefined) => {
    if (closed) return Promise.reject(new AppError('SHUTTING_DOWN', 'The server is shutting down.'));
    return new Promise<SubmitOutcome>((resolve, reject) => {
      if (batch.length === 0) flushes.started();
      batch.push({ input, idempotency, resolve, reject });
      flushes.schedule();
    });
  };

  return {
    submit: (input) => enqueue(input, undefined).then((outcome) => outcome.row),
    submitIdempotent: enqueue,
    noteConnection: flushes.noteConnection,
    async close() {
      closed = true;
      while (committing || batch.length > 0) await (committing ?? flush());
    },
  };
}
