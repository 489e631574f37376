import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { parseIcs } from './ics.js';
import { Skeleton } from './skeleton.js';
import { useFile } from './use-file.js';

const when = (d: Date | undefined, allDay: boolean) =>
  d ? d.toLocaleString(undefined, allDay ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' }) : '';

export default function IcsViewer({ url, name }: ViewerProps) {
  const file = useFile(url, async (r) => parseIcs(await r.text()));
  if (file.state === 'loading') return <Skeleton />;
  if (file.state === 'error') return <PreviewMessage>{file.message}</PreviewMessage>;
  if (!file.value.length) return <PreviewMessage>No results found.</PreviewMessage>;
  return (
    <ol className="tw-ics-viewer" aria-label={name}>
      {file.value.map((event, i) => (
        <li key={i}>
          <strong>{event.summary || '(no title)'}</strong>
          <div>
            {when(event.start, event.allDay)}
            {event.end && !event.allDay ? ` – ${when(event.end, false)}` : ''}
          </div>
          {event.location ? <div>{event.location}</div> : null}
          {event.description ? <p>{event.description}</p> : null}
        </li>
      ))}
    </ol>
  );
}
