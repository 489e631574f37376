/** Named errors of the pipeline: the name is what the state machine's Retry and Catch match. */
export class PipelineError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export const recordingMissing = () =>
  new PipelineError('RecordingMissing', 'No recording was found for this transcription. Please record or upload the visit again.');
export const noSpeech = () => new PipelineError('NoSpeechRecognized', 'No speech was recognized in the recording.');
export const noteNoLongerDraft = () => new PipelineError('NoteNoLongerDraft', 'The note was signed or deleted before the AI note was ready.');
export const transcriptionNotFound = () => new PipelineError('TranscriptionNotFound', 'Transcription not found');
export const transcriptionJobFailed = (reason?: string) =>
  new PipelineError('TranscriptionJobFailed', `Speech recognition failed${reason ? `: ${reason}` : ''}. Please try again.`);
export const aiNotConfigured = (what: string) => new PipelineError('AiNotConfigured', `${what} is not configured for this practice.`);
export const runSuperseded = () => new PipelineError('RunSuperseded', 'A newer attempt of this transcription is running.');
