/** The configured port may be taken by another program: find another and say so. */

import { createServer } from 'node:net';

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

/** True for the error Node raises when a port is taken. */
export function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/** The question the shell asks when the port is taken (buttons: use the other port, quit). */
export function portInUseQuestion(port: number, alternative: number) {
  return {
    type: 'warning' as const,
    title: 'Port in use',
    message: `Port ${port} is already in use by another program.`,
    detail:
      `The local API of Narration Studio could not start on port ${port}. ` +
      `Start it on port ${alternative} instead? Apps that call the local API must then use ` +
      `http://127.0.0.1:${alternative}. The choice is remembered.`,
    buttons: [`Use port ${alternative}`, 'Quit'],
    defaultId: 0,
    cancelId: 1,
  };
}
