/**
 * Ports: whether one is free, the next free one, and the port a data directory's server listened
 * on last (`last-port.json` in the data directory), so `serve` and `npm start` print the same
 * address at every start of the same data directory.
 */

import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** True when nothing listens on host:port (checked by binding it briefly). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The first free port after `port` (up to `tries` of them), else one the system picks. */
export async function findFreePort(port: number, host = '127.0.0.1', tries = 20): Promise<number> {
  for (let candidate = port + 1; candidate <= Math.min(65535, port + tries); candidate++) {
    if (await isPortFree(candidate, host)) return candidate;
  }
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host }, () => {
      const address = probe.address();
      const free = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(free));
    });
  });
}

/** The file in a data directory that remembers its server's last port. */
export const LAST_PORT_FILE = 'last-port.json';

/** The port the data directory's server listened on last; undefined when none was kept (or the file is unreadable). */
function readLastPort(dataDir: string): number | undefined {
  try {
    const { port } = JSON.parse(readFileSync(join(dataDir, LAST_PORT_FILE), 'utf8')) as { port?: unknown };
    return Number.isInteger(port) && (port as number) > 0 && (port as number) <= 65535
      ? (port as number)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers `port` as the data directory's last one (written whole: temp file, rename). */
export function writeLastPort(dataDir: string, port: number): void {
  const path = join(dataDir, LAST_PORT_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify({ port })}\n`);
  renameSync(`${path}.tmp`, path);
}

/**
 * The port a server of `dataDir` should listen on when none was asked for: the one it had last
 * (else `fallback`) when free, else the next free one, with a sentence saying so.
 */
export async function choosePort(
  dataDir: string,
  fallback: number,
  host = '127.0.0.1',
): Promise<{ port: number; notice?: string }> {
  const wanted = readLastPort(dataDir) ?? fallback;
  if (await isPortFree(wanted, host)) return { port: wanted };
  const port = await findFreePort(wanted, host);
  return {
    port,
    notice: `port ${wanted} is in use by another program: listening on ${port} instead (this data folder's next start tries ${port} first)`,
  };
}
