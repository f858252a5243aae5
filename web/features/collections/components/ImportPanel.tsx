import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconPhoto } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import {
  type CollectionDetail,
  csvCell,
  type ImportPreview,
  type ImportProblem,
  type ImportRow,
  importTemplateCsv,
  MAX_IMPORT_CSV_BYTES,
  MAX_IMPORT_PHOTOS,
  MAX_IMPORT_ROWS,
} from '../../../../common/contracts/collections';
import { PHOTO_ACCEPT } from '../../../../common/domain/uploads';
import { errorMessage, HttpError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useImportCollection, usePreviewImport } from '../api';

// The collection page's bulk intake (docs/product/collections.md): choose a CSV and its photos, see
// every row as the server reads it with each problem beside its field and row number, fix a row in
// place and check again, then import all rows at once.

/** The CSV of the preview's rows as edited: the columns as read, the photos column last. */
export function rowsToCsv(columns: string[], rows: ImportRow[]): string {
  const cols = columns.filter(Boolean);
  const lines = [cols.map(csvCell).join(',')];
  for (const r of rows)
    lines.push(cols.map((c) => csvCell(c === 'photos' ? r.photos.join(';') : (r.fields[c] ?? ''))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(importTemplateCsv())}`;

function problemsOf(errors: ImportProblem[], row: number) {
  return errors.filter((e) => e.row === row);
}

/** One CSV row as a card: its fields as inputs, each problem under its field; other problems above. */
function RowCard({
  row,
  columns,
  problems,
  onChange,
}: {
  row: ImportRow;
  columns: string[];
  problems: ImportProblem[];
  onChange: (row: ImportRow) => void;
}) {
  const [open, setOpen] = useState(problems.length > 0);
  const fieldProblem = (c: string) =>
    problems
      .filter((p) => p.field === c)
      .map((p) => p.message)
      .join(' ');
  const elsewhere = problems.filter((p) => !columns.includes(p.field));
  const title = `Row ${row.row}: ${row.fields.itemName || 'no item name'}`;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-import-row={row.row}
      component="section"
      aria-label={title}
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600}>{title}</Text>
        <Group gap="xs">
          {problems.length ? (
            <Badge color="red" variant="light">
              {problems.length} {problems.length === 1 ? 'problem' : 'problems'}
            </Badge>
          ) : (
            <Badge color="green" variant="light">
              Ready
            </Badge>
          )}
          {!problems.length && (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => setOpen((o) => !o)}
              aria-expanded={open}
            >
              {open ? 'Close' : 'Edit'}
            </Button>
          )}
        </Group>
      </Group>
      {elsewhere.map((p) => (
        <Text key={`${p.field}-${p.message}`} c="red.8" size="sm" mt="xs" role="alert">
          Row {row.row}, {p.field}: {p.message}
        </Text>
      ))}
      {(open || problems.length > 0) && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} mt="sm" spacing="sm">
          {columns.filter(Boolean).map((c) => (
            <TextInput
              key={c}
              label={`${c} (row ${row.row})`}
              name={`rows.${row.row}.${c}`}
              value={c === 'photos' ? row.photos.join(';') : (row.fields[c] ?? '')}
              error={fieldProblem(c) || undefined}
              onChange={(e) => {
                const value = e.currentTarget.value;
                onChange(
                  c === 'photos'
                    ? {
                        ...row,
                        photos: value
                          .split(';')
                          .map((p) => p.trim())
                          .filter(Boolean),
                      }
                    : { ...row, fields: { ...row.fields, [c]: value } },
                );
              }}
            />
          ))}
        </SimpleGrid>
      )}
    </Card>
  );
}

export function ImportPanel({ collection }: { collection: CollectionDetail }) {
  const [csvFile, setCsvFile] = useState<File | null>(null);
  const [photos, setPhotos] = useState<File[]>([]);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [rows, setRows] = useState<ImportRow[]>([]);
  const [edited, setEdited] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const check = usePreviewImport(collection.id);
  const importer = useImportCollection(collection.id);
  const photoNames = useMemo(() => photos.map((f) => f.name), [photos]);

  const runCheck = async (csv: string) => {
    setFailure(null);
    try {
      const result = await check.mutateAsync({ csv, photoNames });
      setPreview(result);
      setRows(result.rows);
      setEdited(false);
    } catch (err) {
      setPreview(null);
      setFailure(errorMessage(err, 'The CSV could not be checked.'));
    }
  };

  const onPreview = async () => {
    if (!csvFile) {
      setFailure('Choose a CSV file');
      return;
    }
    if (csvFile.size > MAX_IMPORT_CSV_BYTES) {
      setFailure(`The CSV file must be ${MAX_IMPORT_CSV_BYTES / (1024 * 1024)} MB or smaller`);
      return;
    }
    await runCheck(await csvFile.text());
  };

  const onImport = async () => {
    if (!preview) return;
    const csv = rowsToCsv(preview.columns, rows);
    setFailure(null);
    try {
      const result = await importer.mutateAsync({ csv, photos });
      toast.success('Import complete', `${result.created} items were added to "${collection.name}".`);
      setPreview(null);
      setRows([]);
      setCsvFile(null);
      setPhotos([]);
    } catch (err) {
      // A refused import lists its problems like the preview does.
      if (err instanceof HttpError && err.status === 400) {
        try {
          const body = JSON.parse(err.bodyText) as { errors?: ImportProblem[] };
          if (body.errors) setPreview({ ...preview, rows, errors: body.errors, valid: false });
        } catch {
          // not JSON: the message below says enough
        }
      }
      setFailure(errorMessage(err, 'The import failed; nothing was imported.'));
    }
  };

  const generalProblems = preview?.errors.filter((e) => e.row === null || e.row === 1) ?? [];
  const busy = check.isPending || importer.isPending;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="import-title" mb="lg">
      <Title order={2} size="h3" id="import-title" mb="xs">
        Import from a CSV
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        One row per item with the submission's fields as columns, and the item's photo file names in the
        column "photos" (separated by ";"). At most {MAX_IMPORT_ROWS.toLocaleString('en-GB')} rows and{' '}
        {MAX_IMPORT_PHOTOS.toLocaleString('en-GB')} photos. All rows are imported, or none.
      </Text>
      <Anchor
        href={TEMPLATE_HREF}
        download="collection-import-template.csv"
        size="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        <IconDownload size={16} aria-hidden="true" />
        Download template CSV
      </Anchor>
      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="md">
        <FileInput
          label="CSV file"
          name="file"
          accept=".csv,text/csv"
          placeholder="Choose a CSV file"
          leftSection={<IconFileSpreadsheet size={16} aria-hidden="true" />}
          value={csvFile}
          onChange={(f) => {
            setCsvFile(f);
            setPreview(null);
          }}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the CSV file' }}
        />
        <FileInput
          label="Photos"
          name="photos"
          accept={PHOTO_ACCEPT}
          multiple
          placeholder="Choose the photos the CSV names"
          leftSection={<IconPhoto size={16} aria-hidden="true" />}
          value={photos}
          onChange={(f) => {
            setPhotos(f);
            // Rows already edited are kept: the new photos count at the next check.
            if (preview) setEdited(true);
          }}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the photos' }}
        />
      </SimpleGrid>
      <Group mt="md" gap="sm">
        <Button onClick={onPreview} disabled={busy || !csvFile} variant="light">
          {check.isPending && !preview ? 'Checking...' : 'Preview'}
        </Button>
      </Group>
      {failure && (
        <Alert color="red" mt="md" role="alert" title="Not imported">
          {failure}
        </Alert>
      )}
      {preview && (
        <Stack mt="md" gap="sm">
          <Alert
            color={preview.valid && !edited ? 'green' : 'orange'}
            role="status"
            title={
              preview.valid && !edited
                ? `${rows.length} ${rows.length === 1 ? 'item' : 'items'} ready to import`
                : edited
                  ? 'Rows changed: check them again before importing'
                  : `${preview.errors.length} ${preview.errors.length === 1 ? 'problem' : 'problems'} to fix`
            }
          >
            {preview.valid && !edited
              ? 'Every row passed the checks.'
              : 'Fix each row below (its problems show under the fields), then press "Check again".'}
          </Alert>
          {generalProblems.map((p) => (
            <Text key={`${p.row}-${p.field}-${p.message}`} c="red.8" size="sm" role="alert">
              {p.row === 1 ? `Row 1 (column names), ${p.field}` : p.field}: {p.message}
            </Text>
          ))}
          {rows.map((r, i) => (
            <RowCard
              key={r.row}
              row={r}
              columns={preview.columns}
              problems={edited ? [] : problemsOf(preview.errors, r.row)}
              onChange={(next) => {
                setRows((all) => all.map((x, j) => (j === i ? next : x)));
                setEdited(true);
              }}
            />
          ))}
          {importer.progress !== null && (
            <Stack gap={4}>
              <Text size="sm" id="import-progress-label">
                Uploading… {Math.round(importer.progress * 100)}%
              </Text>
              <Progress.Root>
                <Progress.Section
                  value={importer.progress * 100}
                  aria-labelledby="import-progress-label"
                  animated
                />
              </Progress.Root>
            </Stack>
          )}
          <Group gap="sm">
            <Button
              variant="light"
              disabled={busy}
              onClick={() => runCheck(rowsToCsv(preview.columns, rows))}
            >
              {check.isPending ? 'Checking...' : 'Check again'}
            </Button>
            <Button onClick={onImport} disabled={busy || !preview.valid || edited}>
              {importer.isPending
                ? 'Importing...'
                : `Import ${rows.length} ${rows.length === 1 ? 'item' : 'items'}`}
            </Button>
          </Group>
        </Stack>
      )}
    </Card>
  );
}
