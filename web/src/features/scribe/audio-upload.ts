import { AUDIO_UPLOAD, audioUploadError } from '../../../../shared/ai/transcription-schema.js';

/** Spec notes §5 audio upload: one file, an allowed extension, at most 250,000,000 bytes. */
export const AUDIO_ACCEPT = AUDIO_UPLOAD.extensions.join(',');
export const ONE_FILE_ONLY = 'Choose one audio file only';

/** The invalid state's message, in the same words the server refuses with; null when the file may go. */
export function audioFilesError(files: readonly { name: string; size: number }[]): string | null {
  if (files.length !== 1) return ONE_FILE_ONLY;
  const [file] = files;
  if (file.size === 0) return 'The file is empty';
  return audioUploadError(file.name, file.size) ?? null;
}

const CONTENT_TYPES: Record<string, string> = { '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.webm': 'audio/webm', '.ogg': 'audio/ogg', '.m4a': 'audio/mp4' };

/** Browsers leave some audio types blank (m4a on Linux); the extension decides then. */
export function audioContentType(file: { name: string; type: string }): string {
  const dot = file.name.lastIndexOf('.');
  return file.type || CONTENT_TYPES[dot < 0 ? '' : file.name.slice(dot).toLowerCase()] || 'application/octet-stream';
}
