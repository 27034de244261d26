// Toasts: errors and notices stay 4 s, successes 2 s; the <Notifications> host caps the stack.
import { notifications } from '@mantine/notifications';
import { TOAST_ERROR_MS, TOAST_SUCCESS_MS } from '@ownvoice/shared';

/** The close button says what it does to a screen reader. */
const CLOSE = { 'aria-label': 'Dismiss notification' };

export function notifyError(message: string, title = 'Something went wrong'): void {
  notifications.show({
    color: 'red',
    title,
    message,
    autoClose: TOAST_ERROR_MS,
    withBorder: true,
    closeButtonProps: CLOSE,
  });
}

export function notifySuccess(message: string, title?: string): void {
  notifications.show({
    color: 'teal',
    title,
    message,
    autoClose: TOAST_SUCCESS_MS,
    withBorder: true,
    closeButtonProps: CLOSE,
  });
}

/** Something the person should know that is neither a failure nor a success (a cancelled payment). */
export function notifyNotice(message: string, title?: string): void {
  notifications.show({
    color: 'gray',
    title,
    message,
    autoClose: TOAST_ERROR_MS,
    withBorder: true,
    closeButtonProps: CLOSE,
  });
}
