// Every dialog of the app: Mantine's Modal, giving focus back to the control that opened it when
// it closes (lib/dialog-focus), which Mantine's own return does not do in all of the app's cases.
import { Modal, type ModalProps } from '@mantine/core';
import { useDialogFocus } from '../lib/dialog-focus';

export function Dialog(props: ModalProps) {
  const focus = useDialogFocus(props.opened);
  return <Modal {...props} {...focus} returnFocus={false} />;
}
