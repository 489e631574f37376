import type { ReactNode } from 'react';
import { Icon as KitIcon, type IconProps } from '../../../components/ui/icons.js';
import type { NoteType } from '../../../../../shared/notes/note-constants.js';

/** Note icons sit in dense headers and rows, a size below the kit's default. */
const Icon = (p: IconProps) => <KitIcon width="16" height="16" {...p} />;

export const NoteIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 3.5h8.5L19 8v12.5H6z" />
    <path d="M14 3.5V8h5M9 12h7M9 15.5h7M9 19h4" />
  </Icon>
);
const DocumentIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 12.5l5.5-5.5a2.5 2.5 0 0 1 3.5 3.5l-7 7a4 4 0 0 1-5.7-5.7L11 5" />
  </Icon>
);
const EmailIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3.5 6.5l8.5 7 8.5-7" />
  </Icon>
);
const PhoneIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2" />
  </Icon>
);
const SmsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 5h16v11H9l-5 4z" />
    <path d="M8 9.5h8M8 12.5h5" />
  </Icon>
);
const StickyIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 4h16v10l-6 6H4z" />
    <path d="M14 20v-6h6" />
  </Icon>
);
const VitalsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 12h4l2-5 4 10 2-5h6" />
  </Icon>
);

const PartnerIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="3.5" width="7" height="7" rx="1.5" />
    <rect x="13.5" y="3.5" width="7" height="7" rx="1.5" />
    <rect x="3.5" y="13.5" width="7" height="7" rx="1.5" />
    <path d="M17 13.5v7M13.5 17h7" />
  </Icon>
);
const RxIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 20V4h5a4 4 0 0 1 0 8H6M10 12l8 8M18 12l-6 6" />
  </Icon>
);
/** A prescription written in an outside e-prescribing system: the Rx with an arrow in from outside. */
const ExternalRxIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 21V9h4a3 3 0 0 1 0 6H4M7 15l5 6M12 15l-5 6" />
    <path d="M15 3h6v6M21 3l-6 6" />
  </Icon>
);
const EConsultIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 5h11v8H7l-4 3z" />
    <path d="M10 16h7l4 3v-8h-3" />
  </Icon>
);

const SalesIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 4h2.5l2.2 11h10.6L21 7H7" />
    <circle cx="9.5" cy="19" r="1.3" />
    <circle cx="17" cy="19" r="1.3" />
  </Icon>
);

const BY_TYPE: Partial<Record<NoteType, (p: IconProps) => ReactNode>> = {
  PARTNER: PartnerIcon,
  SALES: SalesIcon,
  RX: RxIcon,
  RX_VERADIGM: ExternalRxIcon,
  RX_DOSESPOT: ExternalRxIcon,
  ECONSULT_THEA: EConsultIcon,
  NOTE: NoteIcon,
  DOCUMENT: DocumentIcon,
  FAX: DocumentIcon,
  EMAIL: EmailIcon,
  PHONE_CALL: PhoneIcon,
  SMS: SmsIcon,
  SMS_LOG: SmsIcon,
  STICKY: StickyIcon,
  VITALS: VitalsIcon,
};

export function NoteTypeIcon({ type, ...props }: IconProps & { type: NoteType }) {
  const Component = BY_TYPE[type] ?? NoteIcon;
  return <Component {...props} />;
}

export const LockIcon = ({ locked, ...p }: IconProps & { locked: boolean }) => (
  <Icon {...p}>
    <rect x="5" y="10.5" width="14" height="10" rx="2" />
    {locked ? <path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" /> : <path d="M8 10.5V7.5a4 4 0 0 1 7.7-1.5" />}
  </Icon>
);
export const MinimizeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 17h12" />
  </Icon>
);
export const ExpandIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
  </Icon>
);
export const ShrinkIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />
  </Icon>
);
export const RestoreIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="5" y="5" width="14" height="14" rx="1.5" />
  </Icon>
);
export const MoreIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="19" cy="12" r="1" />
  </Icon>
);
