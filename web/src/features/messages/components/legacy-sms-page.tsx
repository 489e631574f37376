import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { normalizePhone } from '../../../../../shared/patients/phone.js';
import { displayPhone, smsBubble, type SmsBubble } from '../../../components/sms/sms-format.js';
import { SmsMessageList } from '../../../components/sms/sms-message-list.js';
import { Button } from '../../../components/ui/button.js';
import { Link } from '../../../components/ui/link.js';
import { Page } from '../../../components/ui/page.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { paths } from '../../../lib/paths.js';
import { useSmsHistory } from '../../../lib/sms.js';
import '../messages.css';

/** Legacy View (/messages/legacy/sms/{patientPhone}/{practicePhone}): the phone's full SMS history, read-only, older pages on demand. */
export function LegacySmsPage() {
  const params = useParams<{ patientPhone: string; practicePhone: string }>();
  const phone = normalizePhone(params.patientPhone ?? '') ?? params.patientPhone ?? '';
  const [before, setBefore] = useState<string | undefined>(undefined);
  const [older, setOlder] = useState<SmsBubble[]>([]);
  const history = useSmsHistory(phone, before);
  const page: SmsBubble[] = (history.data?.messages ?? []).map(smsBubble);
  const all = [...page, ...older.filter((o) => !page.some((p) => p.id === o.id))];

  return (
    <Page
      title={`SMS history with ${displayPhone(phone)}`}
      actions={params.practicePhone ? <Link href={paths.smsConversation(phone, params.practicePhone)}>Back to chat</Link> : null}
    >
      <div className="tw-card tw-scheduled">
        {history.data?.optOut.optedOut ? (
          <p className="tw-sms-chat__notice">{`This number replied ${history.data.optOut.keyword ?? 'STOP'} and receives no texts until it replies START.`}</p>
        ) : null}
        {history.data?.hasMore ? (
          <Button
            size="sm"
            onPress={() => {
              setOlder(all);
              setBefore(page[0]?.timestamp);
            }}
          >
            Load earlier messages
          </Button>
        ) : null}
        {history.isPending ? <Spinner label="Loading messages" /> : null}
        {history.isError ? <p role="alert">{history.error.message}</p> : null}
        {history.isSuccess && all.length === 0 ? <p>No messages.</p> : null}
        <SmsMessageList messages={all} label="SMS history" />
      </div>
    </Page>
  );
}
