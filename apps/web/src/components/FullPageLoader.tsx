import { Center, Loader } from '@mantine/core';

/** Shown while the session is still being checked, so guarded pages never flash. */
export function FullPageLoader() {
  return (
    <Center mih="60vh" role="status" aria-label="Loading">
      <Loader size="lg" />
    </Center>
  );
}
