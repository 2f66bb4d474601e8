/**
 * Opus in Ogg (OpenAI's `response_format: "opus"`): packets from libopus (`@evan/opus`'s WASM
 * build) in pages written by mediabunny's Ogg muxer. Not the package's N-API binary: it
 * encodes through buffers shared by every thread of the process, and the engine's threads
 * encode the stored files while the server's thread encodes a streamed answer (three threads
 * encoding one input at once each got a different, corrupt stream: full-scale bursts, packets
 * ffmpeg refuses; test/core/engine/audio/opus-threads.test.ts). Opus takes 8/12/16/24/48 kHz only: 16000 and 24000 Hz pass straight
 * through, other rates are resampled to 24000 Hz. The stream's length is exact: OpusHead's
 * pre-skip is the encoder's look-ahead (312 at 48 kHz) and the last page's granule position
 * ends the stream at the last input sample.
 */

import opus from '@evan/opus/wasm/index.js';
import { EncodedAudioPacketSource, EncodedPacket, OggOutputFormat } from 'mediabunny';
import { MuxedStream } from './muxed-stream';
import { createResampler, type Resampler } from './resampler';
import { AUDIO_CONTENT_TYPES, concatBytes, encoderError, type StreamEncoder } from './stream-encoder';

/** Rates passed to Opus without resampling (the engine's 16 and 24 kHz voices). */
const DIRECT_RATES = [8000, 12000, 16000, 24000, 48000] as const;
type OpusRate = (typeof DIRECT_RATES)[number];
/** Rate other inputs (eSpeak's 22050 Hz) are resampled to: the nearest above, so nothing is lost. */
const FALLBACK_RATE: OpusRate = 24000;
/** Opus timestamps and granule positions always count 48 kHz samples. */
const GRANULE_RATE = 48000;
/** 20 ms frames: Opus's usual size, good quality per bit for speech. */
const FRAME_MS = 20;
/** Bits per second: transparent mono speech (OpenAI's own opus streams are about this rate). */
const BITRATE = { narrow: 32000, wide: 48000 };
/** libopus's requests and values (opus_defines.h). */
const CTL = {
  getLookahead: 4027,
  setSignal: 4024,
  signalVoice: 3001,
  setBitrate: 4002,
} as const;
/** Page length limit, s: a live listener gets audio at least this often. */
const MAX_PAGE_SECONDS = 0.5;

/** The 19-byte OpusHead identification header (RFC 7845 §5.1), mono, mapping family 0. */
function opusHead(preSkip: number, inputRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set([0x4f, 0x70, 0x75, 0x73, 0x48, 0x65, 0x61, 0x64]); // "OpusHead"
  head[8] = 1; // version
  head[9] = 1; // channels
  view.setUint16(10, preSkip, true);
  view.setUint32(12, inputRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // channel mapping family
  return head;
}

/** An Ogg Opus stream from mono PCM at `sampleRate` Hz. */
export async function createOpusStreamEncoder(sampleRate: number): Promise<StreamEncoder> {
  const rate: OpusRate = (DIRECT_RATES as readonly number[]).includes(sampleRate)
    ? (sampleRate as OpusRate)
    : FALLBACK_RATE;
  const resampler: Resampler = await createResampler(sampleRate, rate);
  let encoder: InstanceType<typeof opus.Encoder>;
  try {
    encoder = new opus.Encoder({ channels: 1, sample_rate: rate, application: 'audio' });
    encoder.ctl(CTL.setSignal, CTL.signalVoice);
    encoder.ctl(CTL.setBitrate, rate <= 16000 ? BITRATE.narrow : BITRATE.wide);
  } catch (error) {
    resampler.close();
    throw encoderError('Opus', error);
  }
  const scale = GRANULE_RATE / rate;
  const lookahead = encoder.ctl(CTL.getLookahead);
  const preSkip = lookahead * scale;
  const frame = (rate * FRAME_MS) / 1000;

  const stream = new MuxedStream('Opus', new OggOutputFormat({ maximumPageDuration: MAX_PAGE_SECONDS }));
  const source = new EncodedAudioPacketSource('opus');
  stream.output.addAudioTrack(source);
  const meta = {
    decoderConfig: {
      codec: 'opus',
      numberOfChannels: 1,
      sampleRate: GRANULE_RATE,
      description: opusHead(preSkip, sampleRate),
    },
  };
  /** Frees the resampler's and the encoder's WASM memory; safe twice. */
  const release = () => {
    resampler.close();
    encoder.drop();
  };
  try {
    await stream.output.start();
  } catch (error) {
    release();
    throw encoderError('Opus', error);
  }

  /** Samples at `rate` waiting for a whole frame. */
  const held = new Int16Array(frame);
  let heldCount = 0;
  /** Samples at `rate` given to the encoder (padding excluded), and frames sent. */
  let real = 0;
  let packets = 0;
  /** The last packet is kept back so the final one can carry the trimmed duration. */
  let last: Uint8Array | undefined;
  let done = false;

  const send = async (data: Uint8Array, durationInSamples: number) => {
    const packet = new EncodedPacket(
      data,
      'key',
      (packets * frame * scale) / GRANULE_RATE,
      durationInSamples / GRANULE_RATE,
    );
    await source.add(packet, packets === 0 ? meta : undefined);
    packets++;
  };

  const encodeFrames = async (pcm: Int16Array) => {
    let offset = 0;
    while (offset < pcm.length) {
      const n = Math.min(frame - heldCount, pcm.length - offset);
      held.set(pcm.subarray(offset, offset + n), heldCount);
      heldCount += n;
      offset += n;
      if (heldCount === frame) {
        const packet = encoder.encode(held);
        heldCount = 0;
        if (last) await send(last, frame * scale);
        last = packet;
      }
    }
  };

  const guard = async <T>(step: () => Promise<T>): Promise<T> => {
    if (done) throw encoderError('Opus', new Error('the stream is already finished'));
    try {
      return await step();
    } catch (error) {
      throw encoderError('Opus', error);
    }
  };

  return {
    format: 'opus',
    contentType: AUDIO_CONTENT_TYPES.opus,
    outputRate: rate,
    encode: (pcm) =>
      guard(async () => {
        const resampled = resampler.process(pcm);
        real += resampled.length;
        await encodeFrames(resampled);
        return stream.take();
      }),
    finish: () =>
      guard(async () => {
        const tail = resampler.flush();
        real += tail.length;
        await encodeFrames(tail);
        // Zeros until the encoder has seen every real sample plus its look-ahead, in whole frames.
        const needed = real + lookahead;
        const fed = (packets + (last ? 1 : 0)) * frame + heldCount;
        const pad = Math.max(0, needed - fed);
        await encodeFrames(new Int16Array(pad + ((frame - ((heldCount + pad) % frame)) % frame)));
        if (last) {
          // The final granule position is pre-skip + real samples; the last packet holds the rest.
          const end = preSkip + real * scale;
          await send(last, end - packets * frame * scale);
          last = undefined;
        }
        const head = stream.take();
        const rest = await stream.finish();
        done = true;
        release();
        return concatBytes([head, rest]);
      }),
    async close() {
      done = true;
      release();
      await stream.close();
    },
  };
}
