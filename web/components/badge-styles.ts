// A badge in a table cell shows its whole label: Mantine's badge clips it with an ellipsis, and in
// flex rows (status beside a quote state, a date beside "Late") the browser then shrinks it to
// "Com…" or "L…". Whole-label badges make the column as wide as they need.
export const WHOLE_LABEL_BADGE = {
  root: { textTransform: 'none', overflow: 'visible', flexShrink: 0 },
  label: { overflow: 'visible' },
} as const;
