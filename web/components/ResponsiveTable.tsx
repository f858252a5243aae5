import type { CSSProperties, ReactNode } from 'react';

/**
 * A table that scrolls sideways on medium screens and turns each row into a card on narrow ones, so
 * every value and action stays visible at 375 px. Cells name themselves with `data-label`, which
 * the card layout shows beside the value (the header row is then only read by screen readers).
 */
export function ResponsiveTable({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <div className="rtable" style={{ '--rtable-min-width': `${minWidth}px` } as CSSProperties}>
      {children}
    </div>
  );
}
