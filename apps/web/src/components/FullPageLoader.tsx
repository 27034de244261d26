import { Center, Loader } from '@mantine/core';

/** Shown while the session is checked or a page's code loads, so pages never flash half-drawn. */
export function FullPageLoader() {
  return (
    <Center mih="60vh" role="status" aria-label="Loading">
      <Loader size="lg" />
    </Center>
  );
}
