// The five top-up packs, in the catalogue's order; each page supplies the buttons.
import { SimpleGrid } from '@mantine/core';
import { PACK_IDS, type PackId } from '@ownvoice/shared';
import type { ReactNode } from 'react';
import { PackCard } from './PackCard';

export function PackCardGrid({ renderAction }: { renderAction: (pack: PackId) => ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="md">
      {PACK_IDS.map((pack) => (
        <PackCard key={pack} pack={pack} action={renderAction(pack)} />
      ))}
    </SimpleGrid>
  );
}
