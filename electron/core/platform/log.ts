/** Minimal logger: the CLI prints to stderr, the desktop shell to its rotating log, tests stay quiet. */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
}

export const silentLog: Log = { info: () => {}, warn: () => {} };

/** Info lines as they are, warnings prefixed "warning: ", both on standard error. */
export const stderrLog: Log = {
  info: (message) => process.stderr.write(`${message}\n`),
  warn: (message) => process.stderr.write(`warning: ${message}\n`),
};
