// The frame of an ordinary page: a container, a title block and consistent vertical rhythm.
import { Box, Container, type ContainerProps, Group, Stack, Text, Title } from '@mantine/core';
import { PRODUCT_NAME } from '@ownvoice/shared';
import { type ReactNode, useEffect } from 'react';

export interface PageProps {
  title: ReactNode;
  /** The browser tab title when `title` is not plain text. */
  documentTitle?: string;
  description?: ReactNode;
  /** Buttons beside the title (below it on phones). */
  actions?: ReactNode;
  eyebrow?: ReactNode;
  size?: ContainerProps['size'];
  children?: ReactNode;
}

export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : `${PRODUCT_NAME}: write in your own voice`;
  }, [title]);
}

export function Page({ title, documentTitle, description, actions, eyebrow, size = 'lg', children }: PageProps) {
  useDocumentTitle(documentTitle ?? (typeof title === 'string' ? title : undefined));
  return (
    <Container size={size} py={{ base: 'xl', sm: 48 }}>
      <Stack gap="xl">
        <Group justify="space-between" align="flex-end" gap="md">
          <Box maw={720}>
            {eyebrow && (
              <Text c="violet.7" fw={700} fz="sm" tt="uppercase" mb={6} style={{ letterSpacing: '0.06em' }}>
                {eyebrow}
              </Text>
            )}
            <Title order={1} fz={{ base: 28, sm: 36 }}>
              {title}
            </Title>
            {description && (
              <Text c="dimmed" fz="lg" mt="xs">
                {description}
              </Text>
            )}
          </Box>
          {actions && <Group gap="sm">{actions}</Group>}
        </Group>
        {children}
      </Stack>
    </Container>
  );
}
