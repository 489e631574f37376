import { TranscribeClient, type MediaFormat } from '@aws-sdk/client-transcribe';
import type { AiEngine } from '../../../../shared/ai/transcription-schema.js';
import { AmazonTranscribe, segmentsFromTranscribe, type TranscribeOutput } from '../../../lib/adapters/amazon-transcribe.js';
import { filesBucket, readJson, readObject, writeObject } from '../run-files.js';
import type { RunAudio, SpeechCheck, SpeechEngine } from './engine-types.js';

export const TRANSCRIBE_ENGINE: AiEngine = { kind: 'amazon-transcribe', local: false, label: 'Amazon Transcribe (speaker labels)' };

const FORMATS: Record<string, { format: MediaFormat; contentType: string }> = {
  webm: { format: 'webm', contentType: 'audio/webm' },
  ogg: { format: 'ogg', contentType: 'audio/ogg' },
  m4a: { format: 'm4a', contentType: 'audio/mp4' },
  mp3: { format: 'mp3', contentType: 'audio/mpeg' },
  wav: { format: 'wav', contentType: 'audio/wav' },
};
const extensionOf = (key: string) => key.slice(key.lastIndexOf('.') + 1).toLowerCase();
const outputKey = (audio: RunAudio) => `${audio.runFolder}transcribe-output.json`;
/** Job names are unique per account and region: the run id plus the attempt's start time. */
const jobNameOf = (audio: RunAudio) => `tidewell-${audio.transcriptionId}-${Date.now()}`.slice(0, 200);

export class TranscribeSpeechEngine implements SpeechEngine {
  readonly engine = TRANSCRIBE_ENGINE;
  constructor(private readonly transcribe: AmazonTranscribe) {}

  static async fromEnv(env: NodeJS.ProcessEnv): Promise<TranscribeSpeechEngine> {
    return new TranscribeSpeechEngine(new AmazonTranscribe(new TranscribeClient({ region: env.AWS_REGION || 'us-east-1' })));
  }

  /** MediaRecorder chunks continue one stream, so their bytes in index order are the recording; an upload is used as it is. */
  async prepareAudio(audio: RunAudio) {
    const extension = extensionOf(audio.sourceKeys[0]);
    const format = FORMATS[extension] ?? FORMATS.webm;
    if (audio.sourceKeys.length === 1) return { audioKey: audio.sourceKeys[0], contentType: format.contentType };
    const parts: Uint8Array[] = [];
    for (const key of audio.sourceKeys) parts.push(await readObject(key));
    const audioKey = `${audio.runFolder}recording.${extension}`;
    await writeObject(audioKey, Buffer.concat(parts), format.contentType);
    return { audioKey, contentType: format.contentType };
  }

  async start(audioKey: string, audio: RunAudio) {
    const jobName = jobNameOf(audio);
    await this.transcribe.start({
      jobName,
      bucket: filesBucket(),
      mediaKey: audioKey,
      mediaFormat: (FORMATS[extensionOf(audioKey)] ?? FORMATS.webm).format,
      outputKey: outputKey(audio),
    });
    return { status: 'IN_PROGRESS' as const, jobName };
  }

  async check(jobName: string, audio: RunAudio): Promise<SpeechCheck> {
    const state = await this.transcribe.state(jobName);
    if (state.status === 'FAILED') return { status: 'FAILED', ...(state.reason ? { reason: state.reason } : {}) };
    if (state.status !== 'COMPLETED') return { status: 'IN_PROGRESS' };
    return { status: 'COMPLETED', segments: segmentsFromTranscribe(await readJson<TranscribeOutput>(outputKey(audio))) };
  }
}
