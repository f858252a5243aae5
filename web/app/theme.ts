import { createTheme, type MantineColorsTuple } from '@mantine/core';

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

export const theme = createTheme({
  primaryColor: 'navy',
  primaryShade: 8,
  colors: { navy, gold },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'Georgia, "Times New Roman", serif', fontWeight: '700' },
  defaultRadius: 'md',
  focusRing: 'always',
});
