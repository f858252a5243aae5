import { Box, Container, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The navy band at the top of each public page: one h1 and a short lead. */
export function PageHero({ eyebrow, title, lead }: { eyebrow?: string; title: string; lead?: ReactNode }) {
  return (
    <Box className="page-hero">
      <Container size="lg" py={{ base: 48, sm: 72 }}>
        {eyebrow && (
          <Text className="eyebrow" mb="xs">
            {eyebrow}
          </Text>
        )}
        <Title order={1} c="white" fz={{ base: 32, sm: 44 }} lh={1.15}>
          {title}
        </Title>
        {lead && (
          <Text c="navy.1" fz={{ base: 'md', sm: 'lg' }} mt="md" maw={680}>
            {lead}
          </Text>
        )}
      </Container>
    </Box>
  );
}
