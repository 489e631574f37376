/**
 * Amazon Transcribe batch jobs (StartTranscriptionJob / GetTranscriptionJob) with speaker labels,
 * and the job's output JSON turned into transcript segments. Only the worker Lambda loads this
 * (through import()), so the API groups never carry the Transcribe client.
 */
import { GetTranscriptionJobCommand, StartTranscriptionJobCommand, type MediaFormat, type TranscribeClient } from '@aws-sdk/client-transcribe';
import type { TranscriptSegment } from '../../../shared/ai/transcription-schema.js';

export interface TranscribeJobInput {
  jobName: string;
  bucket: string;
  mediaKey: string;
  mediaFormat: MediaFormat;
  outputKey: string;
  languageCode?: string;
  /** A clinician and a patient, sometimes a relative or an interpreter. */
  maxSpeakers?: number;
}

export type TranscribeJobState = { status: 'QUEUED' | 'IN_PROGRESS' } | { status: 'COMPLETED' } | { status: 'FAILED'; reason?: string };

export class AmazonTranscribe {
  constructor(private readonly client: TranscribeClient) {}

  async start(input: TranscribeJobInput): Promise<void> {
    await this.client.send(
      new StartTranscriptionJobCommand({
        TranscriptionJobName: input.jobName,
        LanguageCode: (input.languageCode ?? 'en-US') as 'en-US',
        MediaFormat: input.mediaFormat,
        Media: { MediaFileUri: `s3://${input.bucket}/${input.mediaKey}` },
        OutputBucketName: input.bucket,
        OutputKey: input.outputKey,
        Settings: { ShowSpeakerLabels: true, MaxSpeakerLabels: input.maxSpeakers ?? 4 },
      }),
    );
  }

  async state(jobName: string): Promise<TranscribeJobState> {
    const out = await this.client.send(new GetTranscriptionJobCommand({ TranscriptionJobName: jobName }));
    const job = out.TranscriptionJob;
    switch (job?.TranscriptionJobStatus) {
      case 'COMPLETED':
        return { status: 'COMPLETED' };
      case 'FAILED':
        return { status: 'FAILED', ...(job.FailureReason ? { reason: job.FailureReason } : {}) };
      case 'QUEUED':
        return { status: 'QUEUED' };
      default:
        return { status: 'IN_PROGRESS' };
    }
  }
}

/** The documented output of a job with ShowSpeakerLabels (results.items, results.speaker_labels, results.audio_segments). */
export interface TranscribeOutput {
  results: {
    transcripts?: { transcript: string }[];
    items?: {
      id?: number;
      type: 'pronunciation' | 'punctuation';
      start_time?: string;
      end_time?: string;
      speaker_label?: string;
      alternatives: { content: string }[];
    }[];
    speaker_labels?: { segments?: { speaker_label: string; start_time: string; end_time: string }[] };
    audio_segments?: { id: number; transcript: string; start_time: string; end_time: string; speaker_label?: string }[];
  };
}

/** spk_0 → Speaker 1: the clinician confirms who is who; the labels only separate voices. */
const speakerName = (label: string | undefined) => (label && /^spk_(\d+)$/.test(label) ? `Speaker ${Number(label.slice(4)) + 1}` : (label ?? 'Speaker 1'));
const seconds = (text: string | undefined) => Math.round(Number(text ?? 0) * 100) / 100;

/**
 * Segments from the job output: the audio_segments Transcribe writes (one per speaker turn or
 * sentence), or, in outputs without them, the words grouped into speaker turns split at sentence ends.
 */
export function segmentsFromTranscribe(output: TranscribeOutput): TranscriptSegment[] {
  const results = output.results;
  if (results.audio_segments?.length) {
    return results.audio_segments.map((s, i) => ({
      id: `seg-${i + 1}`,
      speaker: speakerName(s.speaker_label),
      start: seconds(s.start_time),
      end: seconds(s.end_time),
      text: s.transcript.trim(),
    }));
  }
  const segments: TranscriptSegment[] = [];
  let current: TranscriptSegment | undefined;
  for (const item of results.items ?? []) {
    const word = item.alternatives[0]?.content ?? '';
    if (item.type === 'punctuation') {
      if (current) {
        current.text += word;
        if (/[.?!]/.test(word)) current = undefined;
      }
      continue;
    }
    const speaker = speakerName(item.speaker_label);
    if (!current || current.speaker !== speaker) {
      current = { id: `seg-${segments.length + 1}`, speaker, start: seconds(item.start_time), end: seconds(item.end_time), text: word };
      segments.push(current);
    } else {
      current.text += ` ${word}`;
      current.end = seconds(item.end_time);
    }
  }
  return segments;
}
