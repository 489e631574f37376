import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { DriveFile } from '../../../../../shared/files/drive.js';
import { SMS_ATTACHMENT_ACCEPT } from '../../../../../shared/messaging/messaging-constants.js';
import { smsAttachmentError } from '../../../../../shared/messaging/messaging-schema.js';
import { contentTypeOf } from '../../../lib/drive.js';
import { PracticeFilesPicker } from '../../../components/files/practice-files-picker.js';
import { PatientPicker } from '../../../components/patient-picker.js';
import { Button } from '../../../components/ui/button.js';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons.js';
import { Link } from '../../../components/ui/link.js';
import { Select } from '../../../components/ui/select.js';
import { showToast } from '../../../lib/toasts.js';
import type { UploadedFile } from '../../../lib/upload-file.js';
import { isAllowedAttachment, SMS_MESSAGES } from '../sms-rules.js';

export interface SmsComposerProps {
  text: string;
  onTextChange: (text: string) => void;
  files: readonly File[];
  onFilesChange: (files: File[]) => void;
  /** Practice drive files picked to go with the text (spec chart-data §2b picker). */
  driveFiles: readonly UploadedFile[];
  onDriveFilesChange: (files: UploadedFile[]) => void;
  onSend: () => void;
  sendDisabled: boolean;
  selecting: boolean;
  onSelecting: (on: boolean) => void;
  selectedCount: number;
  onMarkUnread: () => void;
  onAddToChart: () => void;
  onDelete: () => void;
  busy: 'unread' | 'chart' | 'delete' | null;
  chartPatientId: string | null;
  onChartPatientChange: (patientId: string | null) => void;
  fromOptions: readonly { id: string; label: string }[];
  from: string | null;
  onFromChange: (number: string | null) => void;
  legacyHref: string | null;
  sendLaterHref: string | null;
  canSelect: boolean;
}

/**
 * The composer (spec shell §2.10): 'Type message...', a plus button opening the toolbar (Select
 * Messages, Cancel Selecting, Mark as Unread, patient picker + Add to Chart, From, Legacy View,
 * attach, Send Later) and the send button. Enter sends; Shift+Enter starts a new line.
 */
export function SmsComposer(props: SmsComposerProps) {
  const [toolbarOpen, setToolbarOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const toolbarId = useId();

  const attach = (list: FileList | null) => {
    const chosen = [...(list ?? [])];
    if (fileInput.current) fileInput.current.value = '';
    if (chosen.length === 0) return;
    if (chosen.some((f) => !isAllowedAttachment(f))) {
      showToast(SMS_MESSAGES.invalidFile, { tone: 'error' });
      return;
    }
    props.onFilesChange([...props.files, ...chosen]);
  };

  const pickDriveFile = (file: DriveFile) => {
    if (props.driveFiles.some((f) => f.key === file.key)) return;
    const attachment = { key: file.key, name: file.name, contentType: contentTypeOf(file.name), size: file.size };
    // Texts carry fewer types and smaller files than the drive holds: the same rule as an attached file.
    if (smsAttachmentError(attachment)) {
      showToast(SMS_MESSAGES.invalidFile, { tone: 'error', description: file.name });
      return;
    }
    props.onDriveFilesChange([...props.driveFiles, attachment]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!props.sendDisabled) props.onSend();
    }
  };

  return (
    <div className="tw-sms-composer">
      {toolbarOpen ? (
        <div id={toolbarId} className="tw-sms-toolbar" role="group" aria-label="Message tools">
          {props.canSelect ? (
            props.selecting ? (
              <Button size="sm" onPress={() => props.onSelecting(false)}>
                Cancel Selecting
              </Button>
            ) : (
              <Button size="sm" onPress={() => props.onSelecting(true)}>
                Select Messages
              </Button>
            )
          ) : null}
          {props.selecting ? (
            <>
              <Button size="sm" isDisabled={props.selectedCount === 0} isPending={props.busy === 'unread'} onPress={props.onMarkUnread}>
                Mark as Unread
              </Button>
              <PatientPicker
                label="Patient for the chart"
                variant="inline"
                value={props.chartPatientId}
                onChange={(id) => props.onChartPatientChange(id)}
                className="tw-sms-toolbar__patient"
              />
              <Button size="sm" variant="primary" isDisabled={props.selectedCount === 0} isPending={props.busy === 'chart'} onPress={props.onAddToChart}>
                Add to Chart
              </Button>
              <Button size="sm" variant="danger" isDisabled={props.selectedCount === 0} isPending={props.busy === 'delete'} onPress={props.onDelete}>
                Delete
              </Button>
            </>
          ) : null}
          <Select label="From" options={props.fromOptions} value={props.from} onChange={props.onFromChange} className="tw-sms-toolbar__from" />
          {props.legacyHref ? (
            <Link href={props.legacyHref} className="tw-sms-toolbar__link">
              Legacy View
            </Link>
          ) : null}
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            accept={SMS_ATTACHMENT_ACCEPT}
            aria-label="Files to attach"
            onChange={(e) => attach(e.target.files)}
          />
          <Button size="sm" onPress={() => fileInput.current?.click()}>
            Attach file
          </Button>
          {props.sendLaterHref ? (
            <Link href={props.sendLaterHref} variant="secondary" className="tw-button--sm tw-sms-toolbar__later">
              Send Later
            </Link>
          ) : null}
        </div>
      ) : null}
      {toolbarOpen && !props.selecting ? (
        <div className="tw-sms-composer__drive">
          <PracticeFilesPicker onPick={pickDriveFile} />
        </div>
      ) : null}
      {props.files.length + props.driveFiles.length > 0 ? (
        <ul className="tw-sms-composer__files" aria-label="Files to send">
          {props.driveFiles.map((file) => (
            <li key={file.key} className="tw-sms-composer__file">
              <span>{file.name}</span>
              <button
                type="button"
                className="tw-sms-icon-button tw-sms-composer__file-remove"
                aria-label={`Remove ${file.name}`}
                onClick={() => props.onDriveFilesChange(props.driveFiles.filter((f) => f.key !== file.key))}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
          {props.files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="tw-sms-composer__file">
              <span>{file.name}</span>
              <button
                type="button"
                className="tw-sms-icon-button tw-sms-composer__file-remove"
                aria-label={`Remove ${file.name}`}
                onClick={() => props.onFilesChange(props.files.filter((_, i) => i !== index))}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="tw-sms-composer__row">
        <button
          type="button"
          className="tw-sms-icon-button tw-sms-composer__plus"
          aria-label="Message tools"
          aria-expanded={toolbarOpen}
          aria-controls={toolbarOpen ? toolbarId : undefined}
          onClick={() => setToolbarOpen((open) => !open)}
        >
          <PlusIcon />
        </button>
        <label className="tw-visually-hidden" htmlFor={`${toolbarId}-text`}>
          Message
        </label>
        <textarea
          id={`${toolbarId}-text`}
          className="tw-sms-composer__input"
          placeholder={SMS_MESSAGES.composerPlaceholder}
          value={props.text}
          rows={2}
          onChange={(e) => props.onTextChange(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button variant="primary" onPress={props.onSend} isDisabled={props.sendDisabled}>
          Send
        </Button>
      </div>
    </div>
  );
}
