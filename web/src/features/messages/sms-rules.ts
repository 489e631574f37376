import { MESSAGING_MESSAGES, smsAttachmentError } from '../../../../shared/messaging/messaging-schema.js';

/** The spec's texts (notes §8, shell §8), word for word, from the shared contract. */
export const SMS_MESSAGES = MESSAGING_MESSAGES;

/** Spec notes §5: a file of an unsupported type or over 5,000,000 bytes blocks sending. */
export function isAllowedAttachment(file: { name: string; type: string; size: number }): boolean {
  return smsAttachmentError({ name: file.name, contentType: file.type, size: file.size }) === null;
}

/** Spec notes §5: a text is sent only with words (markup stripped) or a file, and in new-message mode to a chosen patient. */
export function canSend({ text, files, newMessage, patientChosen }: { text: string; files: number; newMessage: boolean; patientChosen: boolean }): boolean {
  if (newMessage && !patientChosen) return false;
  return text.replace(/<[^>]*>/g, '').trim().length > 0 || files > 0;
}

export { withServerText } from '../../lib/toasts.js';
