import { useMemo } from 'react';
import { displayPhone } from '../../../components/sms/sms-format.js';
import { displayUserName, usePracticeMetadata, usePracticeUsers } from '../../../lib/practice.js';

/** Spec shell §2.10: the From selector lists the practice number and the additional ones, each with its owner. */
export function usePracticeNumbers(): { options: { id: string; label: string }[]; main: string | null } {
  const practice = usePracticeMetadata();
  const users = usePracticeUsers();
  return useMemo(() => {
    const owners = new Map((users.data ?? []).map((u) => [u.userId, displayUserName(u)]));
    const options: { id: string; label: string }[] = [];
    const main = practice.data?.phoneNumber ?? null;
    if (main) options.push({ id: main, label: `${displayPhone(main)} · ${practice.data?.practiceName ?? 'Practice'}` });
    for (const extra of practice.data?.additionalPhoneNumbers ?? []) {
      if (extra.phoneNumber === main) continue;
      options.push({ id: extra.phoneNumber, label: `${displayPhone(extra.phoneNumber)} · ${owners.get(extra.owner) ?? 'Unknown owner'}` });
    }
    return { options, main };
  }, [practice.data, users.data]);
}
