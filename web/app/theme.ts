import {
  createTheme,
  darken,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

const navy: MantineColorsTuple = [
  '#eef2f9',
  '#dce3f0',
  '#b5c4e0',
  '#8ba3cf',
  '#6886c1',
  '#5274b9',
  '#4569b6',
  '#36589f',
  '#2c4d8f',
  '#1b2a4a',
];
const gold: MantineColorsTuple = [
  '#fdf7e7',
  '#f7ecd2',
  '#eed7a3',
  '#e5c170',
  '#ddae46',
  '#d8a22b',
  '#d69c1c',
  '#bd870f',
  '#a87706',
  '#916600',
];

// Pale colours cannot carry white or tinted text at WCAG AA contrast: they get dark text.
const PALE = new Set(['yellow', 'orange', 'lime', 'gold', 'green', 'cyan']);
const TINTED = new Set(['light', 'outline', 'subtle', 'transparent']);

/**
 * Mantine's default variants put shade-6/8 text on tints (about 3:1). Text on tints and outlines uses
 * the darkest shade instead, and pale filled colours get dark text, so badges and buttons of every
 * colour meet AA (4.5:1).
 */
const accessibleVariants: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.shade !== undefined) return colors;
  const variant = input.variant ?? 'filled';
  if (TINTED.has(variant)) {
    const darkest = input.theme.colors[parsed.color]?.[9];
    const text = PALE.has(parsed.color) || !darkest ? 'var(--mantine-color-dark-7)' : darken(darkest, 0.2);
    return { ...colors, color: text, hoverColor: text };
  }
  if (variant === 'filled' && PALE.has(parsed.color))
    return { ...colors, color: 'var(--mantine-color-dark-9)' };
  if (variant === 'filled' && parsed.color !== 'navy') {
    return {
      ...colors,
      background: `var(--mantine-color-${parsed.color}-9)`,
      hover: `var(--mantine-color-${parsed.color}-8)`,
    };
  }
  return colors;
};

export const theme = createTheme({
  primaryColor: 'navy',
  primaryShade: 8,
  colors: { navy, gold },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'Georgia, "Times New Roman", serif', fontWeight: '700' },
  defaultRadius: 'md',
  focusRing: 'always',
  variantColorResolver: accessibleVariants,
  components: {
    // Their close buttons are icon-only: give them a name (axe button-name).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});
