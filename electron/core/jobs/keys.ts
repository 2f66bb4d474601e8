/**
 * API keys: created here, stored only as sha256 hashes, shown once. Each key has a signing
 * secret for its callbacks' signatures and a credit balance.
 */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../shared/errors';
import type { KeyRow, Repos, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import { DEFAULT_BALANCE_MILLI, MILLI_PER_CREDIT } from '../../shared/pricing';
import { cleanText } from '../../shared/text';
import {
  creditsToAddError,
  grantCredits,
  MAX_CREDITS_ADDED,
  recordStartingBalance,
  transferCredits,
} from './credits';

export interface CreatedKey {
  /** The full key: shown to the user once, never stored. */
  key: string;
  row: KeyRow;
}

/** sha256 of the key, lowercase hex. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Characters of an API key at least (generated keys have 47): too long to guess. */
const MIN_KEY_LENGTH = 32;
/** Characters of a key kept and shown to tell keys apart (`key_prefix`): never more. */
const KEY_PREFIX_LENGTH = 4;
/**
 * Characters of a credential (a key, a sign-in token) that choose its bucket in the
 * failed-authentication throttle: 12, so `nsk_` and 8 random characters (48 bits) of a
 * generated key. Why 12 and what the stored hash gives away: server/auth-throttle.ts.
 */
export const KEY_BUCKET_CHARS = 12;

/**
 * What is kept of a credential's bucket prefix (`api_keys.prefix_hash`, the throttle's memory):
 * the SHA-256 of its first KEY_BUCKET_CHARS characters, in a domain of its own (never equal to a
 * hash of the same characters made for anything else), base64url.
 */
export function keyPrefixHash(credential: string): string {
  return createHash('sha256')
    .update('narration-studio key bucket\n')
    .update(credential.slice(0, KEY_BUCKET_CHARS), 'utf8')
    .digest('base64url');
}

/** The rule of a user-supplied key, in words. */
export const KEY_TEXT_RULE = `${MIN_KEY_LENGTH} to 256 visible ASCII characters`;

/** A user-supplied key must be 32–256 visible ASCII characters. */
export function isValidKeyText(key: string): boolean {
  return key.length >= MIN_KEY_LENGTH && /^[\x21-\x7e]{1,256}$/.test(key);
}

/**
 * Creates a key (random unless `key` is given) with its starting balance and a `grant` ledger
 * entry, in one transaction.
 */
export async function createApiKey(
  store: Store,
  clock: Clock,
  options: { name?: string; key?: string; balanceMilli?: number } = {},
): Promise<CreatedKey> {
  const key = options.key ?? `nsk_${randomBytes(32).toString('base64url')}`;
  if (!isValidKeyText(key)) throw new AppError('INVALID_FIELD', `An API key must be ${KEY_TEXT_RULE}.`);
  const row = newKeyRow(key, {
    // A display name: control characters out (PostgreSQL cannot store U+0000).
    name: cleanText(options.name ?? '').trim() || 'API key',
    balanceMilli: options.balanceMilli ?? DEFAULT_BALANCE_MILLI,
    now: isoTime(clock.now()),
  });
  await store.transaction((tx) => insertGranted(tx, row));
  return { key, row };
}

/** A new key's row for the key text `key`: a random id and signing secret, nothing queued. */
function newKeyRow(
  key: string,
  {
    name,
    balanceMilli,
    now,
    studio = false,
  }: { name: string; balanceMilli: number; now: string; studio?: boolean },
): KeyRow {
  return {
    id: `key_${randomBytes(6).toString('hex')}`,
    name,
    key_hash: hashKey(key),
    key_prefix: key.slice(0, KEY_PREFIX_LENGTH),
    prefix_hash: keyPrefixHash(key),
    signing_secret: newSigningSecret(),
    balance_milli: balanceMilli,
    queued: 0,
    created_at: now,
    revoked_at: null,
    studio: studio ? 1 : 0,
  };
}

/** Inserts `row` with its starting balance as a `grant` ledger entry, in the caller's transaction. */
async function insertGranted(tx: Repos, row: KeyRow): Promise<void> {
  await tx.keys.insert(row);
  await recordStartingBalance(tx, row);
}

/**
 * The key the studio acts with: its own live key (made here, `studio` 1) when it ever had one,
 * else the oldest live key (a `serve --api-key` key, or one made on the keys page); made when
 * there is none. The studio's own keys form one line: when the studio's key was revoked, the new
 * one takes over the balance the revoked one had left, as ONE `transfer` ledger entry (of the new
 * key, `from_key_id` the old one, whose balance goes to 0), in one transaction, and no fresh
 * balance on top, so revoking is not a way to mint credits. A studio key revoked with nothing
 * left makes a new one at 0, still with its `transfer` entry (of 0). Other keys move nothing.
 */
export async function studioKey(
  store: Store,
  clock: Clock,
  options: { balanceMilli?: number } = {},
): Promise<KeyRow> {
  const isStudio = (k: KeyRow) => Number(k.studio ?? 0) === 1;
  const chosen = (keys: KeyRow[]) =>
    keys.some(isStudio)
      ? keys.find((k) => isStudio(k) && k.revoked_at === null)
      : keys.find((k) => k.revoked_at === null);
  const found = chosen(await store.keys.list());
  if (found) return found;
  const key = `nsk_${randomBytes(32).toString('base64url')}`;
  const now = isoTime(clock.now());
  return await store.transaction(async (tx) => {
    const revoked = (await tx.keys.list()).filter(isStudio);
    // Locked (PostgreSQL): two instances signing in at once move the balance once; the second
    // finds the first one's new key below.
    const locked = await tx.keys.lockForUpdate(revoked.map((k) => k.id));
    const again = chosen(await tx.keys.list());
    if (again) return again;
    const newest = [...locked].sort((a, b) => (a.revoked_at ?? '').localeCompare(b.revoked_at ?? '')).at(-1);
    // The source of the move: the last revoked studio key, and any older one a refund left credits on.
    const sources = locked.filter((k) => Number(k.balance_milli) > 0 || k === newest);
    // A first studio key gets the starting balance; a later one starts at 0 and takes the transfer.
    const balanceMilli = newest ? 0 : (options.balanceMilli ?? DEFAULT_BALANCE_MILLI);
    const row = newKeyRow(key, { name: 'Studio', balanceMilli, now, studio: true });
    if (!newest) {
      await insertGranted(tx, row);
      return row;
    }
    await tx.keys.insert(row);
    let after = 0;
    for (const source of sources) after = await transferCredits(tx, source, row.id, now);
    return { ...row, balance_milli: after };
  });
}

/** A fresh signing secret: `whsec_` and 32 random bytes. */
function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Gives the key `id` a new signing secret, at once and without overlap: every delivery attempt
 * from now on (retries of earlier requests included) is signed with the new one alone, and the
 * old one verifies nothing more, so a leaked secret stops working the moment it is rotated. A
 * receiver still holding the old secret refuses those deliveries; they are retried on the
 * usual schedule (and can be resent), so update the receiver, then resend what failed.
 */
export async function rotateSigningSecret(store: Store, id: string): Promise<KeyRow> {
  if (!(await store.keys.setSigningSecret(id, newSigningSecret())))
    throw new AppError('KEY_NOT_FOUND', `No API key "${id}".`, { id });
  return (await store.keys.findById(id))!;
}

/**
 * Makes sure `key` exists (creating it with the default balance); a revoked key stays revoked.
 * A key made before prefix hashes existed gets its own here, so the throttle knows it from its
 * first request.
 */
export async function ensureApiKey(
  store: Store,
  clock: Clock,
  key: string,
  balanceMilli?: number,
): Promise<{ row: KeyRow; created: boolean }> {
  const existing = await store.keys.findByHash(hashKey(key));
  if (existing) return { row: await withPrefixHash(store, existing, key), created: false };
  try {
    const created = await createApiKey(store, clock, { key, name: 'serve --api-key', balanceMilli });
    return { row: created.row, created: true };
  } catch (error) {
    // Another instance of a shared database created it at the same moment (unique key_hash).
    const raced = await store.keys.findByHash(hashKey(key));
    if (raced) return { row: raced, created: false };
    throw error;
  }
}

/**
 * The live key matching the presented one, or undefined. The lookup is by hash, and the
 * stored hash is compared again in constant time, so response timing says nothing about the key.
 * A key made before prefix hashes existed gets its own on its first success.
 */
export async function authenticate(store: Store, presented: string): Promise<KeyRow | undefined> {
  // Keys shorter than the minimum (set with --api-key before it was raised) no longer count.
  if (presented.length < MIN_KEY_LENGTH) return undefined;
  const hash = hashKey(presented);
  const row = await store.keys.findByHash(hash);
  if (!row) return undefined;
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  return row.revoked_at === null ? await withPrefixHash(store, row, presented) : undefined;
}

/** `row` (the row of `key`) with its prefix hash, stored first when it had none (schema version 16). */
async function withPrefixHash(store: Store, row: KeyRow, key: string): Promise<KeyRow> {
  if (row.prefix_hash !== null) return row;
  const prefixHash = keyPrefixHash(key);
  await store.keys.fillPrefixHash(row.id, prefixHash);
  return { ...row, prefix_hash: prefixHash };
}

/**
 * Revokes by id, or by the key's prefix when one key alone has it (generated keys all begin
 * with `nsk_`); effective for the next request.
 */
export async function revokeApiKey(store: Store, clock: Clock, idOrPrefix: string): Promise<KeyRow> {
  const row = await findKey(store, idOrPrefix);
  await store.keys.revoke(row.id, isoTime(clock.now()));
  // Its studio sessions end with it (they would be refused at their next request anyway).
  await store.sessions.deleteForKey(row.id);
  return (await store.keys.findById(row.id))!;
}

/**
 * The key with this id, or the key itself (its text), or the one key that begins with this
 * prefix; KEY_NOT_FOUND otherwise (and when several keys share the prefix).
 */
export async function findKey(store: Store, idOrPrefix: string): Promise<KeyRow> {
  const keys = await store.keys.list();
  const byId = keys.find((k) => k.id === idOrPrefix);
  if (byId) return byId;
  if (idOrPrefix.length >= MIN_KEY_LENGTH) {
    const byKey = await store.keys.findByHash(hashKey(idOrPrefix));
    if (byKey) return byKey;
  }
  const byPrefix = keys.filter((k) => k.key_prefix === idOrPrefix);
  if (byPrefix.length > 1)
    throw new AppError(
      'KEY_NOT_FOUND',
      `${byPrefix.length} API keys begin with "${idOrPrefix}": give the key's id.`,
    );
  if (!byPrefix[0])
    throw new AppError('KEY_NOT_FOUND', `No API key with id or prefix "${idOrPrefix}".`, { id: idOrPrefix });
  return byPrefix[0];
}

/** An entry of core/jobs for the CLI (keys-command.ts), beside addCredits. */
export { MAX_CREDITS_ADDED } from './credits';

/** The highest balance a key may reach, milli-credits (exact in a JavaScript number). */
const MAX_BALANCE_MILLI = 1_000_000_000_000_000;

/**
 * Adds `credits` (a whole number from 1 to MAX_CREDITS_ADDED) to a live key's balance, with a
 * `grant` ledger entry, in one transaction; the key as it is then. INVALID_FIELD (field
 * `credits`) for a wrong amount or a balance that would pass MAX_BALANCE_MILLI, KEY_NOT_FOUND
 * for an unknown key, KEY_REVOKED for a revoked one.
 */
export async function addCredits(
  store: Store,
  clock: Clock,
  keyId: string,
  credits: number,
): Promise<KeyRow> {
  if (!Number.isSafeInteger(credits) || credits < 1 || credits > MAX_CREDITS_ADDED)
    throw creditsToAddError(credits);
  const amount = credits * MILLI_PER_CREDIT;
  const now = isoTime(clock.now());
  await store.transaction(async (tx) => {
    const [row] = await tx.keys.lockForUpdate([keyId]);
    if (!row) throw new AppError('KEY_NOT_FOUND', `No API key "${keyId}".`, { id: keyId });
    if (row.revoked_at !== null)
      throw new AppError(
        'KEY_REVOKED',
        `The API key ${row.id} was revoked on ${row.revoked_at}: it takes no credits.`,
      );
    if (Number(row.balance_milli) + amount > MAX_BALANCE_MILLI)
      throw new AppError(
        'INVALID_FIELD',
        `That would make the balance of ${row.id} more than ${(MAX_BALANCE_MILLI / MILLI_PER_CREDIT).toLocaleString('en')} credits.`,
        { field: 'credits' },
      );
    await grantCredits(tx, row.id, amount, now);
  });
  return (await store.keys.findById(keyId))!;
}
