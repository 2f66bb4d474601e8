/**
 * The HTTP edge, before any route: how long a client may take to send a request and how long a
 * connection may stay idle, how many connections the server holds at once (in all, and from one
 * address), and which proxies may name the client (`X-Forwarded-For`).
 *
 * - Timeouts: a request's headers must arrive within `headersTimeoutMs` of its first byte (a
 *   connection that sends nothing counts from its opening), the whole request, body included,
 *   within `requestTimeoutMs`; node answers 408 (errors.ts: writeClientError) and closes. A
 *   kept-alive connection waits `keepAliveTimeoutMs` for its next request; a connection with no
 *   traffic either way for `idleTimeoutMs` is closed (event streams write a comment every 15 s;
 *   a "direct" submit's wait is added to it).
 * - Connection caps: a connection over `maxConnections` in all, or over
 *   `maxConnectionsPerAddress` from its address, is closed at once, before a byte is read. A
 *   trusted proxy's address counts only in the total (every client behind it arrives from it).
 *   The total stays well below the file descriptors a process gets (node raises its soft limit
 *   to the hard one, 4,096 and more on current systems), so renders and the database keep theirs.
 * - A client that closes its sending side after its request (a FIN, as `nc -N` and some HTTP/1.0
 *   clients do) still gets its answer: node would end the connection at once, dropping an answer
 *   not yet written (a 400 under load came back as nothing). An answer already under way (a
 *   stream) ends as before, and long work reads the FIN as the client gone (client-gone.ts).
 * - Trusted proxies (`serve --trust-proxy`): only a connection from one of these addresses or
 *   ranges may name the client in `X-Forwarded-For` (fastify's trustProxy: the nearest address
 *   not trusted is the client); from anyone else the header is ignored and the socket's address
 *   is the client. `request.ip` is that client: the throttle and the logs use it, and a client
 *   behind a proxy has at most `maxConnectionsPerAddress` requests under way at once (more:
 *   429 TOO_MANY_REQUESTS), the cap its own connections would have.
 */

import { BlockList, isIP, type Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors';

export interface EdgeOptions {
  /** Time to receive a request's headers, ms (default 20 000). */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included, ms (default 1 800 000: a 1 GiB upload at 0.6 MB/s). */
  requestTimeoutMs?: number;
  /** Time a kept-alive connection waits for its next request, ms (default 10 000). */
  keepAliveTimeoutMs?: number;
  /** A connection with no traffic either way this long is closed, ms (default 300 000). */
  idleTimeoutMs?: number;
  /** Connections held at once (default 1 024). */
  maxConnections?: number;
  /** Connections held at once from one address (default 256); a trusted proxy counts only in the total. */
  maxConnectionsPerAddress?: number;
  /**
   * Proxies whose `X-Forwarded-For` names the client: addresses, ranges (`10.0.0.0/8`,
   * `fd00::/8`) or `loopback`, `linklocal`, `uniquelocal` (default none).
   */
  trustProxy?: readonly string[];
}

export const EDGE_DEFAULTS = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 30 * 60_000,
  keepAliveTimeoutMs: 10_000,
  idleTimeoutMs: 5 * 60_000,
  maxConnections: 1024,
  maxConnectionsPerAddress: 256,
} as const;

/** The ranges proxy-addr (fastify's trustProxy) gives these names. */
const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** What is wrong with a `--trust-proxy` value, or undefined when it is an address, a range or a range's name. */
export function trustProxyProblem(value: string): string | undefined {
  if (value in NAMED_RANGES || isIP(value) !== 0) return undefined;
  const [address, bits, extra] = value.split('/');
  const family = isIP(address ?? '');
  const max = family === 4 ? 32 : 128;
  if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(bits ?? '') || Number(bits) > max)
    return `"${value}" is not an address, a range such as 10.0.0.0/8, or loopback, linklocal, uniquelocal`;
  return undefined;
}

/** The address a socket reports, an IPv4-mapped IPv6 address as plain IPv4. */
export function plainAddress(address: string | undefined): string {
  const text = address ?? 'unknown';
  return text.startsWith('::ffff:') && text.includes('.') ? text.slice(7) : text;
}

/** A test of addresses against the trusted proxies (valid values: trustProxyProblem). */
function trustedProxies(values: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const value of values.flatMap((v) => NAMED_RANGES[v] ?? [v])) {
    const [address, bits] = value.split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** Fastify's server options for the timeouts and trusted proxies (the caps: `limitConnections`). */
export function edgeServerOptions(options: EdgeOptions, directTimeoutMs: number) {
  const headersTimeout = options.headersTimeoutMs ?? EDGE_DEFAULTS.headersTimeoutMs;
  const requestTimeout = Math.max(headersTimeout, options.requestTimeoutMs ?? EDGE_DEFAULTS.requestTimeoutMs);
  return {
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? EDGE_DEFAULTS.keepAliveTimeoutMs,
    // A "direct" submit writes nothing while it waits for its render.
    connectionTimeout: Math.max(
      options.idleTimeoutMs ?? EDGE_DEFAULTS.idleTimeoutMs,
      directTimeoutMs + 60_000,
    ),
    http: {
      headersTimeout,
      requestTimeout,
      // How often node looks for requests past those times: a quarter of the shorter, at most 5 s.
      connectionsCheckingInterval: Math.max(10, Math.min(5_000, Math.floor(headersTimeout / 4))),
    },
    trustProxy: options.trustProxy && options.trustProxy.length > 0 ? [...options.trustProxy] : false,
  };
}

/**
 * Caps the requests under way of each client behind a trusted proxy (its connections are the
 * proxy's, which the per-address cap leaves alone) at `maxConnectionsPerAddress`.
 */
export function limitClientsBehindProxies(app: FastifyInstance, options: EdgeOptions): void {
  if (!options.trustProxy || options.trustProxy.length === 0) return;
  const isProxy = trustedProxies(options.trustProxy);
  const maxPerClient = options.maxConnectionsPerAddress ?? EDGE_DEFAULTS.maxConnectionsPerAddress;
  const underWay = new Map<string, number>();
  app.addHook('onRequest', async (request, reply) => {
    if (!isProxy(plainAddress(request.socket.remoteAddress))) return;
    const client = plainAddress(request.ip);
    const mine = underWay.get(client) ?? 0;
    if (mine >= maxPerClient)
      throw new AppError('TOO_MANY_REQUESTS', 'Too many requests at once from this client.', {
        retry_after_s: 1,
      });
    underWay.set(client, mine + 1);
    reply.raw.once('close', () => {
      const left = (underWay.get(client) ?? 1) - 1;
      if (left > 0) underWay.set(client, left);
      else underWay.delete(client);
    });
  });
}

/**
 * Lets the answer to a request whose client then half-closes be written (see the header). Node's
 * own handling, by `httpAllowHalfOpen` (lib/_http_server.js, socketOnEnd): with it false, the
 * client's FIN ends the connection whatever the answer; with it true, the connection ends after
 * the answer in progress, or at once when there is none. A response that has already sent its
 * head still ends at the FIN, as with node's default.
 */
export function answerHalfClosedClients(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const onEnd = () => {
      if (response.headersSent && !response.writableFinished) socket.end();
    };
    socket.once('end', onEnd);
    response.once('close', () => socket.off('end', onEnd));
  });
}

/**
 * Closes at once every connection over the total cap or over its address's cap (a trusted
 * proxy's address has no cap of its own). Counts until each connection closes.
 */
export function limitConnections(server: Server, options: EdgeOptions): void {
  const maxTotal = options.maxConnections ?? EDGE_DEFAULTS.maxConnections;
  const maxPerAddress = options.maxConnectionsPerAddress ?? EDGE_DEFAULTS.maxConnectionsPerAddress;
  const isProxy = trustedProxies(options.trustProxy ?? []);
  const perAddress = new Map<string, number>();
  let total = 0;
  server.on('connection', (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress);
    const capped = !isProxy(address);
    const mine = perAddress.get(address) ?? 0;
    if (total >= maxTotal || (capped && mine >= maxPerAddress)) {
      socket.destroy();
      return;
    }
    total++;
    if (capped) perAddress.set(address, mine + 1);
    socket.once('close', () => {
      total--;
      if (!capped) return;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
}
