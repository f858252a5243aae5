import { Alert, Button, Code, CopyButton, Group, List, Text } from '@mantine/core';
import { saveBlob } from '../../../lib/api';

/** The codes as one text: a heading, the account, the date, one code a line. */
export function recoveryCodesText(codes: string[], email: string, now = new Date()): string {
  return [
    'Two-factor recovery codes',
    `Account: ${email}`,
    `Made: ${now.toISOString().slice(0, 10)}`,
    'Each code signs you in once. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** Prints the codes alone (not the whole profile page), from a hidden frame. */
function printCodes(text: string) {
  const frame = document.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  document.body.appendChild(frame);
  const doc = frame.contentDocument;
  const win = frame.contentWindow;
  if (!doc || !win) {
    frame.remove();
    return;
  }
  const pre = doc.createElement('pre');
  pre.textContent = text;
  pre.style.font = '14pt monospace';
  doc.body.appendChild(pre);
  win.focus();
  win.print();
  setTimeout(() => frame.remove(), 1000);
}

/**
 * The recovery codes, shown once after they are made: each can be copied as a whole, downloaded as a
 * text file or printed, before the person confirms they have saved them.
 */
export function RecoveryCodesCard({
  codes,
  email,
  onDone,
}: {
  codes: string[];
  email: string;
  onDone: () => void;
}) {
  const text = recoveryCodesText(codes, email);
  return (
    <Alert color="teal" title="Your recovery codes" role="status">
      <Text size="sm" mb="xs">
        Each code signs you in once if you lose your phone. They are shown only now: save or print them.
      </Text>
      <List spacing={2} aria-label="Recovery codes" data-testid="recovery-codes">
        {codes.map((c) => (
          <List.Item key={c}>
            <Code>{c}</Code>
          </List.Item>
        ))}
      </List>
      <Group mt="sm" gap="xs">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button
          size="xs"
          variant="light"
          onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), 'recovery-codes.txt')}
        >
          Download
        </Button>
        <Button size="xs" variant="light" onClick={() => printCodes(text)}>
          Print
        </Button>
        <Button size="xs" variant="filled" onClick={onDone}>
          I have saved them
        </Button>
      </Group>
    </Alert>
  );
}
