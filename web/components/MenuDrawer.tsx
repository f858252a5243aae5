import { Drawer, type DrawerProps } from '@mantine/core';

/** Mantine's Drawer in its own chunk: it brings ScrollArea and floating-ui (about 20 KB gzip). */
export function MenuDrawer(props: DrawerProps) {
  return <Drawer {...props} />;
}
