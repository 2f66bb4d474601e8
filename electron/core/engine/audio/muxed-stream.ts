/**
 * A mediabunny `Output` whose bytes are collected in order for a live stream, shared by the
 * Ogg Opus, ADTS AAC and FLAC encoders. Only muxers that write strictly forward are used
 * (Ogg; ADTS; FLAC with `appendOnly`), so no byte is ever rewritten after it was handed out.
 */

import {
  AudioSample,
  AudioSampleSource,
  Output,
  StreamTarget,
  type AudioEncodingConfig,
  type OutputFormat,
  type StreamTargetChunk,
} from 'mediabunny';
import { AppError } from '../../../shared/errors';
import { AUDIO_CONTENT_TYPES, concatBytes, encoderError, type StreamEncoder } from './stream-encoder';

/** An Output writing in order into a queue of byte chunks that `take` empties. */
export class MuxedStream {
  readonly output: Output;
  private pending: Uint8Array[] = [];
  private position = 0;

  constructor(
    readonly name: string,
    format: OutputFormat,
  ) {
    const writable = new WritableStream<StreamTargetChunk>({
      write: (chunk) => {
        // A back-patch of bytes already sent would corrupt the stream: refuse it loudly.
        if (chunk.position !== this.position) {
          throw new AppError(
            'INTERNAL',
            `${name} muxer wrote at ${chunk.position}, expected ${this.position}`,
          );
        }
        // StreamTarget hands out its own copy of each section.
        this.pending.push(chunk.data);
        this.position += chunk.data.length;
      },
    });
    this.output = new Output({ format, target: new StreamTarget(writable) });
  }

  /** Bytes written since the last call (possibly none); the caller keeps them. */
  take(): Uint8Array {
    if (this.pending.length === 0) return new Uint8Array(0);
    const out = concatBytes(this.pending);
    this.pending = [];
    return out;
  }

  /** Finalises the output (flushes encoders and muxer) and returns the remaining bytes. */
  async finish(): Promise<Uint8Array> {
    try {
      await this.output.finalize();
    } catch (error) {
      throw encoderError(this.name, error);
    }
    return this.take();
  }

  /** Stops the output and its encoders (worker threads) without finishing. */
  async close(): Promise<void> {
    if (this.output.state === 'finalized' || this.output.state === 'canceled') return;
    await this.output.cancel();
  }
}

/**
 * Mono s16 PCM fed to a mediabunny encoder (a registered custom encoder: AAC, FLAC) through an
 * AudioSampleSource, with timestamps counted in samples so they never drift. The output is a
 * MuxedStream's, or any other (the M4B writer's, to a file: engine/export/m4b.ts).
 */
export class PcmTrack {
  private readonly source: AudioSampleSource;
  private samples = 0;

  constructor(
    private readonly stream: Pick<MuxedStream, 'output' | 'name'>,
    private readonly sampleRate: number,
    config: AudioEncodingConfig,
  ) {
    this.source = new AudioSampleSource(config);
    stream.output.addAudioTrack(this.source);
  }

  /** Queues `pcm` for encoding; resolves once the encoder's queue has room again. */
  async add(pcm: Int16Array): Promise<void> {
    if (pcm.length === 0) return;
    const sample = new AudioSample({
      data: pcm.slice(),
      format: 's16',
      numberOfChannels: 1,
      sampleRate: this.sampleRate,
      timestamp: this.samples / this.sampleRate,
    });
    this.samples += pcm.length;
    try {
      await this.source.add(sample);
    } catch (error) {
      throw encoderError(this.stream.name, error);
    } finally {
      sample.close();
    }
  }
}

/** The StreamEncoder of a MuxedStream fed through a PcmTrack (AAC, FLAC). */
export function pcmTrackEncoder(
  format: 'aac' | 'flac',
  stream: MuxedStream,
  track: PcmTrack,
  sampleRate: number,
): StreamEncoder {
  let done = false;
  const check = () => {
    if (done) throw encoderError(stream.name, new Error('the stream is already finished'));
  };
  return {
    format,
    contentType: AUDIO_CONTENT_TYPES[format],
    outputRate: sampleRate,
    async encode(pcm) {
      check();
      await track.add(pcm);
      return stream.take();
    },
    async finish() {
      check();
      done = true;
      return stream.finish();
    },
    async close() {
      done = true;
      await stream.close();
    },
  };
}
