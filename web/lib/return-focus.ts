import { useState } from 'react';

/**
 * For a dialog that is mounted when it opens and unmounted when it closes (so the dialog's own
 * focus return has nothing to return to): remembers what had the focus when it was mounted — the
 * button that opened it — and the returned function puts the focus back there once the dialog is
 * gone (docs/decisions/0012a-web-conventions.md).
 */
export function useReturnFocus(): () => void {
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement && document.activeElement !== document.body
      ? document.activeElement
      : null,
  );
  return () => {
    if (!opener) return;
    // After the dialog's own cleanup (which may move the focus) has run.
    setTimeout(() => {
      if (opener.isConnected) opener.focus();
    }, 0);
  };
}
