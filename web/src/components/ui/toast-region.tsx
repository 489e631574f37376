import { Button, UNSTABLE_Toast as Toast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastRegion as ToastRegion, Text } from 'react-aria-components';
import { toastQueue } from '../../lib/toasts.js';
import { CloseIcon } from './icons.js';

export function Toasts() {
  return (
    <ToastRegion queue={toastQueue} className="tw-toasts">
      {({ toast }) => (
        <Toast toast={toast} className={`tw-toast tw-toast--${toast.content.tone}`}>
          <ToastContent className="tw-toast__content">
            <Text slot="title" className="tw-toast__title">
              {toast.content.title}
            </Text>
            {toast.content.description ? (
              <Text slot="description" className="tw-toast__description">
                {toast.content.description}
              </Text>
            ) : null}
          </ToastContent>
          <Button slot="close" className="tw-toast__close" aria-label="Dismiss">
            <CloseIcon />
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
