/** The configured port may be taken by another program: find another and say so. */

export { findFreePort, isPortFree } from '../core/platform/ports';

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
