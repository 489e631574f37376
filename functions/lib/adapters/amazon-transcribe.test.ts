import { GetTranscriptionJobCommand, StartTranscriptionJobCommand, TranscribeClient } from '@aws-sdk/client-transcribe';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { AmazonTranscribe, segmentsFromTranscribe, type TranscribeOutput } from './amazon-transcribe.js';

const transcribe = mockClient(TranscribeClient);

beforeEach(() => transcribe.reset());

describe('Amazon Transcribe adapter', () => {
  it('starts a batch job on the recording with speaker labels, writing its output beside the run', async () => {
    transcribe
      .on(StartTranscriptionJobCommand)
      .resolves({ TranscriptionJob: { TranscriptionJobName: 'tidewell-trn-1-1', TranscriptionJobStatus: 'IN_PROGRESS' } });
    await new AmazonTranscribe(new TranscribeClient({ region: 'us-east-1' })).start({
      jobName: 'tidewell-trn-1-1',
      bucket: 'files-bucket',
      mediaKey: 'recordings/patients/p1/n1/transcriptions/trn-1/recording.webm',
      mediaFormat: 'webm',
      outputKey: 'recordings/patients/p1/n1/transcriptions/trn-1/transcribe-output.json',
    });
    expect(transcribe.commandCalls(StartTranscriptionJobCommand)[0].args[0].input).toEqual({
      TranscriptionJobName: 'tidewell-trn-1-1',
      LanguageCode: 'en-US',
      MediaFormat: 'webm',
      Media: { MediaFileUri: 's3://files-bucket/recordings/patients/p1/n1/transcriptions/trn-1/recording.webm' },
      OutputBucketName: 'files-bucket',
      OutputKey: 'recordings/patients/p1/n1/transcriptions/trn-1/transcribe-output.json',
      Settings: { ShowSpeakerLabels: true, MaxSpeakerLabels: 4 },
    });
  });

  it('reads the job state, with the failure reason of a failed job', async () => {
    const adapter = new AmazonTranscribe(new TranscribeClient({ region: 'us-east-1' }));
    transcribe
      .on(GetTranscriptionJobCommand)
      .resolvesOnce({ TranscriptionJob: { TranscriptionJobName: 'j', TranscriptionJobStatus: 'IN_PROGRESS' } })
      .resolvesOnce({
        TranscriptionJob: {
          TranscriptionJobName: 'j',
          TranscriptionJobStatus: 'COMPLETED',
          Transcript: { TranscriptFileUri: 'https://s3.us-east-1.amazonaws.com/files-bucket/out.json' },
        },
      })
      .resolvesOnce({
        TranscriptionJob: {
          TranscriptionJobName: 'j',
          TranscriptionJobStatus: 'FAILED',
          FailureReason: 'The media format provided does not match the detected media format.',
        },
      });
    expect(await adapter.state('j')).toEqual({ status: 'IN_PROGRESS' });
    expect(await adapter.state('j')).toEqual({ status: 'COMPLETED' });
    expect(await adapter.state('j')).toEqual({ status: 'FAILED', reason: 'The media format provided does not match the detected media format.' });
    expect(transcribe.commandCalls(GetTranscriptionJobCommand)[0].args[0].input).toEqual({ TranscriptionJobName: 'j' });
  });

  // The output JSON of a job with ShowSpeakerLabels, as documented (results.items, speaker_labels, audio_segments).
  const OUTPUT: TranscribeOutput = {
    results: {
      transcripts: [{ transcript: 'What brings you in? I have had a headache.' }],
      speaker_labels: {
        segments: [
          { speaker_label: 'spk_0', start_time: '0.5', end_time: '1.6' },
          { speaker_label: 'spk_1', start_time: '2.0', end_time: '3.9' },
        ],
      },
      items: [
        { id: 0, type: 'pronunciation', start_time: '0.5', end_time: '0.8', speaker_label: 'spk_0', alternatives: [{ content: 'What' }] },
        { id: 1, type: 'pronunciation', start_time: '0.8', end_time: '1.0', speaker_label: 'spk_0', alternatives: [{ content: 'brings' }] },
        { id: 2, type: 'pronunciation', start_time: '1.0', end_time: '1.2', speaker_label: 'spk_0', alternatives: [{ content: 'you' }] },
        { id: 3, type: 'pronunciation', start_time: '1.2', end_time: '1.6', speaker_label: 'spk_0', alternatives: [{ content: 'in' }] },
        { id: 4, type: 'punctuation', speaker_label: 'spk_0', alternatives: [{ content: '?' }] },
        { id: 5, type: 'pronunciation', start_time: '2.0', end_time: '2.1', speaker_label: 'spk_1', alternatives: [{ content: 'I' }] },
        { id: 6, type: 'pronunciation', start_time: '2.1', end_time: '2.4', speaker_label: 'spk_1', alternatives: [{ content: 'have' }] },
        { id: 7, type: 'pronunciation', start_time: '2.4', end_time: '2.6', speaker_label: 'spk_1', alternatives: [{ content: 'had' }] },
        { id: 8, type: 'pronunciation', start_time: '2.6', end_time: '2.7', speaker_label: 'spk_1', alternatives: [{ content: 'a' }] },
        { id: 9, type: 'pronunciation', start_time: '2.7', end_time: '3.9', speaker_label: 'spk_1', alternatives: [{ content: 'headache' }] },
        { id: 10, type: 'punctuation', speaker_label: 'spk_1', alternatives: [{ content: '.' }] },
      ],
    },
  };

  it('turns the speaker-labelled words into segments with speakers and times', () => {
    expect(segmentsFromTranscribe(OUTPUT)).toEqual([
      { id: 'seg-1', speaker: 'Speaker 1', start: 0.5, end: 1.6, text: 'What brings you in?' },
      { id: 'seg-2', speaker: 'Speaker 2', start: 2, end: 3.9, text: 'I have had a headache.' },
    ]);
  });

  it('uses the audio_segments of newer outputs as they are', () => {
    const withSegments: TranscribeOutput = {
      results: {
        ...OUTPUT.results,
        audio_segments: [{ id: 0, transcript: 'What brings you in?', start_time: '0.5', end_time: '1.6', speaker_label: 'spk_0' }],
      },
    };
    expect(segmentsFromTranscribe(withSegments)).toEqual([{ id: 'seg-1', speaker: 'Speaker 1', start: 0.5, end: 1.6, text: 'What brings you in?' }]);
  });
});
