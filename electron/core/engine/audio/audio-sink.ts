/**
 * The streaming audio output contract shared by the WAV and MP3 writers. Both write through
 * a `StagedFile` (core/platform/staged-file.ts): audio is appended in small blocks and the
 * file only appears under its final name once it is complete.
 */

/** What a finished sink reports about the file it wrote. */
export interface AudioSinkResult {
  /** Size of the final file in bytes (headers included). */
  bytes: number;
  /** Duration of the PCM written, ms (samples / sampleRate × 1000, not rounded). */
  durationMs: number;
  /** Mono samples written. */
  samples: number;
}

/**
 * A destination for mono 16-bit PCM that streams to a file.
 *
 * The caller owns the sink and must end it with exactly one of `finish()` or `abort()`;
 * until then a temporary `<path>.partial` file exists and the file handle stays open.
 */
export interface AudioSink {
  /**
   * Appends samples. The samples are copied or encoded before this returns, so the caller
   * may reuse the array at once; the promise resolves when buffered output is below the
   * sink's limit (backpressure). Calls are applied in call order even if not awaited.
   * Rejects with AppError OUTPUT_FAILED when the file cannot be written.
   */
  write(pcm: Int16Array): Promise<void>;
  /**
   * Flushes everything, closes the file and renames `<path>.partial` to `<path>`, so a
   * file under the final name is always complete. The sink cannot be used afterwards.
   */
  finish(): Promise<AudioSinkResult>;
  /** Closes and deletes the temporary file. Safe to call after a failure or twice. */
  abort(): Promise<void>;
}
