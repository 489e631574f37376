/**
 * Where a visit's audio lives in the files bucket. Everything of one note sits under
 * recordings/patients/<patientId>/<noteId>/: each recording or upload in its own folder (the run's
 * filesPath), each run's joined audio and result under transcriptions/<transcriptionId>/.
 */
import { ValidationError } from '../errors.js';

export const RECORDINGS_PREFIX = 'recordings/patients/';

const SAFE = /^[A-Za-z0-9_-]{1,64}$/;

export const noteRecordingsFolder = (patientId: string, noteId: string) => `${RECORDINGS_PREFIX}${patientId}/${noteId}/`;
export const chunkKey = (folder: string, index: number, extension: string) => `${folder}chunk-${String(index).padStart(6, '0')}.${extension}`;
export const runFolder = (patientId: string, noteId: string, transcriptionId: string) =>
  `${noteRecordingsFolder(patientId, noteId)}transcriptions/${transcriptionId}/`;
export const CHUNK_PATTERN = /\/chunk-(\d{6})\.[a-z0-9]+$/;

/** MediaRecorder's types (with or without codecs) and the upload types, to the extension the chunk is stored with. */
const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/aac': 'm4a',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
};

export function chunkExtension(contentType: string): string {
  const base = contentType.split(';')[0].trim().toLowerCase();
  const extension = EXTENSIONS[base];
  if (!extension) throw new ValidationError('The recording must be audio (webm, ogg, mp4, wav or mpeg)', { contentType: 'is not an audio type' });
  return extension;
}

export function assertSafeId(value: string, field: string): void {
  if (!SAFE.test(value)) throw new ValidationError(`The ${field} is not valid`, { [field]: 'is invalid' });
}

/** A file name kept to safe characters, its extension lower-cased (the pipeline picks the decoder by it). */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'audio';
  const dot = base.lastIndexOf('.');
  const stem = (dot > 0 ? base.slice(0, dot) : base).replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 80) || 'audio';
  return `${stem}${dot > 0 ? base.slice(dot).toLowerCase() : ''}`;
}

/** A run's filesPath must be one recording folder of this note; its fileKey a file directly inside it. */
export function assertRunLocation(patientId: string, noteId: string, filesPath: string, fileKey?: string): string {
  const folder = filesPath.endsWith('/') ? filesPath : `${filesPath}/`;
  const prefix = noteRecordingsFolder(patientId, noteId);
  const rest = folder.startsWith(prefix) ? folder.slice(prefix.length, -1) : '';
  if (!SAFE.test(rest) || rest === 'transcriptions') {
    throw new ValidationError("The filesPath must be a recording folder of this note's patient", { filesPath: 'is invalid' });
  }
  if (fileKey !== undefined) {
    const name = fileKey.startsWith(folder) ? fileKey.slice(folder.length) : '';
    if (!name || name.includes('/') || name.startsWith('.')) throw new ValidationError('The fileKey must be a file in filesPath', { fileKey: 'is invalid' });
  }
  return folder;
}
