import { NOTE_MESSAGES, UPLOAD_MAX_BYTES } from './note-constants.js';

/** Executables, scripts, macro and legacy Office formats, html and svg are never accepted (spec chart-data §5). */
export const BLOCKED_EXTENSIONS = [
  'exe',
  'msi',
  'bat',
  'cmd',
  'com',
  'scr',
  'dll',
  'sh',
  'bash',
  'ps1',
  'vbs',
  'vbe',
  'js',
  'mjs',
  'jse',
  'wsf',
  'wsh',
  'jar',
  'apk',
  'app',
  'py',
  'pl',
  'rb',
  'php',
  'docm',
  'xlsm',
  'pptm',
  'dotm',
  'xltm',
  'doc',
  'xls',
  'ppt',
  'dot',
  'xlt',
  'pps',
  'html',
  'htm',
  'xhtml',
  'svg',
  'svgz',
] as const;

/** What the file viewer can show, plus common clinical document formats. */
export const ALLOWED_EXTENSIONS = [
  'pdf',
  'jpg',
  'jpeg',
  'png',
  'gif',
  'bmp',
  'heic',
  'tif',
  'tiff',
  'txt',
  'rtf',
  'csv',
  'xml',
  'xlsx',
  'docx',
  'pptx',
  'wav',
  'mp3',
  'ogg',
  'oga',
  'weba',
  'mpeg',
  'm4a',
  'webm',
  'mp4',
  'mov',
  'zip',
  'dcm',
  'ics',
] as const;

export function fileExtension(name: string): string {
  const base = name.split('/').pop() ?? name;
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** The longest file name kept, in UTF-8 bytes: well inside what S3 and every local file system take. */
export const FILE_NAME_MAX_BYTES = 120;

/**
 * A file name every store can hold: no path separators or control characters, and at most
 * FILE_NAME_MAX_BYTES, shortened before its extension so the file keeps its type.
 */
export function safeFileName(name: string, fallback = 'file'): string {
  const cleaned =
    Array.from(name, (ch) => (ch === '/' || ch === '\\' || ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127 ? '_' : ch))
      .join('')
      .replace(/\s+/g, ' ')
      .trim() || fallback;
  if (utf8Bytes(cleaned) <= FILE_NAME_MAX_BYTES) return cleaned;
  const ext = fileExtension(cleaned);
  const tail = ext && ext.length <= 10 ? `.${ext}` : '';
  const chars = Array.from(cleaned.slice(0, cleaned.length - tail.length));
  while (chars.length && utf8Bytes(chars.join('') + tail) > FILE_NAME_MAX_BYTES) chars.pop();
  return `${chars.join('').trimEnd()}${tail}`;
}

/** null when the file may be uploaded, otherwise the message to show. */
export function uploadError(name: string, sizeBytes?: number | null, maxBytes = UPLOAD_MAX_BYTES): string | null {
  const ext = fileExtension(name);
  if (!ext || (BLOCKED_EXTENSIONS as readonly string[]).includes(ext) || !(ALLOWED_EXTENSIONS as readonly string[]).includes(ext)) {
    return NOTE_MESSAGES.unsupportedFile;
  }
  if (sizeBytes != null && sizeBytes > maxBytes) return NOTE_MESSAGES.fileTooLarge;
  return null;
}
