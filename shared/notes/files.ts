import { NOTE_MESSAGES, UPLOAD_MAX_BYTES } from './note-constants.js';

/** Executables, scripts, macro and legacy Office formats, html and svg are never accepted (spec chart-data §5). */
export const BLOCKED_EXTENSIONS = [
  'exe', 'msi', 'bat', 'cmd', 'com', 'scr', 'dll', 'sh', 'bash', 'ps1', 'vbs', 'vbe', 'js', 'mjs', 'jse', 'wsf', 'wsh', 'jar',
  'apk', 'app', 'py', 'pl', 'rb', 'php', 'docm', 'xlsm', 'pptm', 'dotm', 'xltm', 'doc', 'xls', 'ppt', 'dot', 'xlt', 'pps',
  'html', 'htm', 'xhtml', 'svg', 'svgz',
] as const;

/** What the file viewer can show, plus common clinical document formats. */
export const ALLOWED_EXTENSIONS = [
  'pdf', 'jpg', 'jpeg', 'png', 'gif', 'bmp', 'heic', 'tif', 'tiff', 'txt', 'rtf', 'csv', 'xml', 'xlsx', 'docx', 'pptx',
  'wav', 'mp3', 'ogg', 'oga', 'weba', 'mpeg', 'm4a', 'webm', 'mp4', 'mov', 'zip', 'dcm', 'ics',
] as const;

export function fileExtension(name: string): string {
  const base = name.split('/').pop() ?? name;
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
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
