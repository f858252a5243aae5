import type { DrawerProps } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';

const MenuDrawer = lazy(async () => ({ default: (await import('./MenuDrawer')).MenuDrawer }));

/**
 * The mobile menu's drawer, loaded the first time it opens, so that the JavaScript for '/' stays
 * under budget (docs/benchmarks.md). Once loaded it stays mounted, so closing still animates.
 */
export function LazyDrawer(props: DrawerProps) {
  const [wanted, setWanted] = useState(props.opened);
  useEffect(() => {
    if (props.opened) setWanted(true);
  }, [props.opened]);
  if (!wanted && !props.opened) return null;
  return (
    <Suspense fallback={null}>
      <MenuDrawer {...props} />
    </Suspense>
  );
}
