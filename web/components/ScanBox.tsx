import { TextInput } from '@mantine/core';
import { IconBarcode } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { parseSampleIdInput } from '../../common/domain/custody';

export const SCAN_BOX_LABEL = 'Scan or type a VAL id';
export const SCAN_BOX_INVALID = 'Enter a VAL id such as VAL-0042';

/**
 * The scan box (docs/product/custody.md): a handheld scanner types the label's VAL id and presses
 * Enter; so does a person. The sample page opens at its custody card, where the one-click moves are.
 */
export function ScanBox() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      role="search"
      aria-label="Open a sample by its label"
      onSubmit={(e) => {
        e.preventDefault();
        const id = parseSampleIdInput(value);
        if (id === null) {
          setError(SCAN_BOX_INVALID);
          return;
        }
        setError(null);
        setValue('');
        void navigate(`/sample/${id}#custody`);
      }}
    >
      <TextInput
        label={SCAN_BOX_LABEL}
        name="scan"
        placeholder="VAL-0042"
        autoComplete="off"
        leftSection={<IconBarcode size={18} aria-hidden="true" />}
        value={value}
        error={error}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          if (error) setError(null);
        }}
        maw={360}
      />
    </form>
  );
}
