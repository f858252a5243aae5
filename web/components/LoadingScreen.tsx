import { Center, Loader, Stack, Text } from '@mantine/core';

/** The spinner shown while authentication loads (docs/product/screens.md), and for any lazy screen. */
export function LoadingScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center mih="50vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader color="navy" aria-hidden="true" />
        <Text c="dimmed">{label}</Text>
      </Stack>
    </Center>
  );
}
