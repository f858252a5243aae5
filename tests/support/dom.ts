import type { UserEvent } from '@testing-library/user-event';

// Helpers for component tests in happy-dom (web/**/*.test.tsx).

/** Mantine's autosizing Textarea listens to document.fonts, which happy-dom does not have. */
export function provideDocumentFonts(): void {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
    });
}

/** Puts text into a field the way a paste does (typing each key of long texts takes seconds here). */
export async function pasteInto(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}
