/**
 * Where callbacks may go. A server other machines can reach (bound beyond loopback, sharing a
 * database with other instances, or reached through a reverse proxy: `--public-url`,
 * `--allowed-host`) takes callback URLs from clients it does not know: left open,
 * `http://127.0.0.1:<port>/…` or `http://169.254.169.254/…` would make it probe its own network
 * for them. Such a server refuses destinations that are loopback, private, link-local, cloud
 * metadata or otherwise not public, unless the operator allows them (`--allow-callback-host`),
 * or all of them (`--internal-callbacks allow`); `--internal-callbacks refuse` restricts a
 * server on loopback only too (one behind a proxy this process cannot see).
 * A literal address is judged at submit and again before each attempt; a name is judged when a
 * connection resolves it: the connection's own lookup keeps only the addresses it checked and
 * hands the socket those, so DNS cannot answer differently between the check and the connect.
 * Redirects are never followed (a 3xx is the attempt's answer), so every connection is checked.
 * What a client sees of a refusal is "not allowed" (`NOT_ALLOWED`): not why, not what a name
 * resolved to; the reason goes to the operator's log only.
 */

import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/** Address ranges a restricted server does not call, and what each is; the first match names it. */
const INTERNAL_RANGES: ReadonlyArray<readonly [cidr: string, kind: string]> = [
  ['169.254.169.254/32', 'cloud metadata'],
  ['100.100.100.200/32', 'cloud metadata'],
  ['fd00:ec2::254/128', 'cloud metadata'],
  ['0.0.0.0/8', 'unspecified'],
  ['127.0.0.0/8', 'loopback'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'private'], // shared address space (carrier-grade NAT)
  ['169.254.0.0/16', 'link-local'],
  ['192.0.0.0/24', 'reserved'],
  ['198.18.0.0/15', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // and the broadcast address
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'reserved'], // IPv4-compatible
  ['100::/64', 'reserved'],
  ['64:ff9b:1::/48', 'private'], // local-use NAT64
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'], // site-local
  ['ff00::/8', 'multicast'],
];

interface Range {
  bytes: number[];
  prefix: number;
}

/** The bytes of an IPv4 or IPv6 address (brackets and a zone allowed), or undefined. */
function addressBytes(address: string): number[] | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return bare.split('.').map(Number);
  if (family !== 6) return undefined;
  // A dotted IPv4 tail becomes two groups.
  const text = bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
  );
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const before = groups(head);
  const after = groups(tail);
  const all = [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

/** An IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4): the IPv4's bytes; else the bytes. */
function unwrap(bytes: number[]): number[] {
  if (bytes.length !== 16) return bytes;
  const starts = (prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  if (starts([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return bytes.slice(12);
  if (starts([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return bytes.slice(12);
  if (starts([0x20, 0x02])) return bytes.slice(2, 6);
  return bytes;
}

function parseRange(text: string): Range | undefined {
  const [address, prefixText] = text.split('/') as [string, string | undefined];
  const bytes = addressBytes(address);
  if (!bytes) return undefined;
  const prefix = prefixText === undefined ? bytes.length * 8 : Number(prefixText);
  if (!/^\d*$/.test(prefixText ?? '') || !Number.isInteger(prefix) || prefix > bytes.length * 8)
    return undefined;
  return { bytes, prefix };
}

function inRange(bytes: number[], range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, range.prefix - bit))) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (range.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

const RANGES = INTERNAL_RANGES.map(([cidr, kind]) => ({ range: parseRange(cidr)!, kind }));

/**
 * What an address is when a restricted server may not call it ("loopback", "private",
 * "link-local", "cloud metadata", …), or undefined for a public address (or not an address).
 * IPv4 inside IPv6 (`::ffff:127.0.0.1`, NAT64, 6to4) counts as that IPv4 address.
 */
export function internalAddressKind(address: string): string | undefined {
  const bytes = addressBytes(address);
  if (!bytes) return undefined;
  const inner = unwrap(bytes);
  return RANGES.find(({ range }) => inRange(inner, range))?.kind;
}

/** One `--allow-callback-host` value: a host name, or an address or range (`10.0.0.0/8`). */
type AllowedHost = { name: string } | { range: Range };

/** Reads an `--allow-callback-host` value; throws an Error that says what is wrong. */
export function parseAllowedCallbackHost(text: string): AllowedHost {
  const value = text.trim().toLowerCase().replace(/\.$/, '');
  const range = parseRange(value);
  if (range) return { range: { ...range, bytes: unwrap(range.bytes) } };
  if (/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(value))
    return { name: value };
  throw new Error(
    `--allow-callback-host "${text}" is not a host name, an IP address or a range such as 10.0.0.0/8`,
  );
}

/** All a client is told of a refused destination (submit error, delivery record). */
export const NOT_ALLOWED = 'not allowed';

/**
 * A refused destination: the attempt fails without a connection, and the round ends. Its
 * message is `NOT_ALLOWED`; `reason` (the address a name resolved to, its kind) is for the log.
 */
export class CallbackRefusedError extends Error {
  static readonly CODE = 'CALLBACK_REFUSED';
  readonly code = CallbackRefusedError.CODE;
  constructor(readonly reason: string) {
    super(NOT_ALLOWED);
  }
}

/** Whether internal destinations are refused: `auto` when the server is reachable from elsewhere. */
export type InternalCallbacks = 'auto' | 'refuse' | 'allow';
export const INTERNAL_CALLBACKS: readonly InternalCallbacks[] = ['auto', 'refuse', 'allow'];

/**
 * True when a server refuses internal callback destinations: `refuse`, or `auto` (the default)
 * when it can be reached from elsewhere (`reachable`: bound beyond loopback, a shared database,
 * a public URL or another Host name accepted).
 */
export function restrictsCallbacks(setting: InternalCallbacks | undefined, reachable: boolean): boolean {
  return setting === 'refuse' || (setting !== 'allow' && reachable);
}

/** net.connect's `lookup` (undici hands its connect options to it). */
export type ConnectLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

export interface CallbackTargets {
  /** True when destinations inside the network are refused (the server is reachable from elsewhere). */
  readonly restricted: boolean;
  /**
   * Why a callback to `url` is refused before any lookup (its host is an address this server
   * may not call), or undefined; for the log: a client is told `NOT_ALLOWED` only. A name is
   * judged by `lookup` when the connection resolves it.
   */
  refusal(url: URL): string | undefined;
  /** For the callback connections of a restricted server: resolves, keeps the addresses it may call. */
  readonly lookup: ConnectLookup | undefined;
}

const WHY =
  'a server reachable from other machines sends no callbacks to loopback, private, link-local or metadata addresses unless --allow-callback-host (or --internal-callbacks allow) allows them';

/**
 * The destinations policy. `restricted`: the server is reachable from other machines;
 * `allowed`: the `--allow-callback-host` values (names, addresses, ranges).
 */
export function callbackTargets(options: {
  restricted: boolean;
  allowed?: readonly string[];
}): CallbackTargets {
  const { restricted } = options;
  const allowed = (options.allowed ?? []).map(parseAllowedCallbackHost);
  const nameAllowed = (name: string) => {
    const bare = name.toLowerCase().replace(/\.$/, '');
    return allowed.some((entry) => 'name' in entry && entry.name === bare);
  };
  /** What `address` is when it may not be called ("loopback", …), or undefined. */
  const refusedKind = (address: string): string | undefined => {
    const kind = internalAddressKind(address);
    if (!kind) return undefined;
    const bytes = unwrap(addressBytes(address)!);
    return allowed.some((entry) => 'range' in entry && inRange(bytes, entry.range)) ? undefined : kind;
  };

  const lookup: ConnectLookup = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const permitted = nameAllowed(hostname)
        ? addresses
        : addresses.filter((a) => refusedKind(a.address) === undefined);
      const first = permitted[0];
      if (!first) {
        const address = addresses[0]?.address ?? 'no address';
        const why = `${hostname} resolves to ${address}, a ${refusedKind(address)} address: ${WHY}`;
        return callback(new CallbackRefusedError(why), []);
      }
      if (lookupOptions.all) callback(null, permitted);
      else callback(null, first.address, first.family);
    });
  };

  return {
    restricted,
    refusal(url) {
      if (!restricted || nameAllowed(url.hostname)) return undefined;
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const kind = isIP(host) ? refusedKind(host) : undefined;
      return kind ? `${host} is a ${kind} address: ${WHY}` : undefined;
    },
    lookup: restricted ? lookup : undefined,
  };
}

/** Refuses nothing: a server on loopback only (and embedders that did not say). */
export const OPEN_CALLBACK_TARGETS = callbackTargets({ restricted: false });
