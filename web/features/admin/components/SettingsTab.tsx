import {
  Alert,
  Button,
  Switch,
  Group,
  Image,
  Loader,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import {
  type LabSettings,
  labSettingsRequest,
  MAX_PAYMENT_INSTRUCTIONS,
} from '../../../../common/contracts/lab';
import { MAX_REVALUE_AFTER_MONTHS, MAX_TAX_FILING_WINDOW_MONTHS } from '../../../../common/domain/appraisal';
import { IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from '../../../../common/domain/uploads';
import { FilePicker } from '../../../components/FilePicker';
import { LazyNotesEditor } from '../../../components/LazyNotesEditor';
import { fetchBlob } from '../../../lib/api';
import { focusFirstError } from '../../../lib/forms';
import { toast } from '../../../lib/toast';
import { DEFAULT_LAB_NAME } from '../../../../common/domain/reports';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { LAB_ADDRESS, LAB_CONTACT_EMAIL, LAB_PHONE } from '../../../components/lab-contact';
import { labSettingsQuery, useSaveLabSettings } from '../api';
import { reason } from './messages';
import { PriceListFields, type PriceValues, toPriceValues } from './PriceListFields';

// The lab's report texts, edited as rich text (loaded only when they are opened: LazyNotesEditor).
const REPORT_TEXTS = [
  {
    name: 'limitingConditionsTemplate',
    label: 'Limiting conditions template',
    description:
      "Fills the limiting conditions of every new valuation report; the expert may change them for one report. Left empty, the product's default text is used.",
  },
  {
    name: 'certificationTemplate',
    label: 'Certification template',
    description:
      "The certification the analyst (and reviewer) sign at the end of every valuation report. Left empty, the product's default text is used.",
  },
] as const;

type Field = 'labName' | 'address' | 'phone' | 'email' | 'website' | 'certificationNumber';
const FIELDS: { name: Field; label: string; type?: string }[] = [
  { name: 'labName', label: 'Lab Name' },
  { name: 'address', label: 'Address' },
  { name: 'phone', label: 'Phone', type: 'tel' },
  { name: 'email', label: 'Email', type: 'email' },
  { name: 'website', label: 'Website', type: 'url' },
  { name: 'certificationNumber', label: 'Certification Number' },
];
type Values = Record<Field, string> &
  PriceValues & {
    require2faForStaff: boolean;
    requireReview: boolean;
    paymentInstructions: string;
    paymentLink: string;
    certificationTemplate: string;
    limitingConditionsTemplate: string;
    revalueAfterMonths: number | string;
    taxFilingWindowMonths: number | string;
  };
/**
 * Settings never saved (no lab name yet) open with the details the public site already shows, so
 * the admin confirms or corrects them instead of retyping; nothing is stored until Save Settings.
 */
export const neverSaved = (s: LabSettings) => !s.labName;
const toValues = (s: LabSettings): Values => {
  const fresh = neverSaved(s);
  return {
    ...toPriceValues(s),
    labName: fresh ? DEFAULT_LAB_NAME : (s.labName ?? ''),
    address: s.address ?? (fresh ? LAB_ADDRESS : ''),
    phone: s.phone ?? (fresh ? LAB_PHONE : ''),
    email: s.email ?? (fresh ? LAB_CONTACT_EMAIL : ''),
    website: s.website ?? '',
    certificationNumber: s.certificationNumber ?? '',
    require2faForStaff: s.require2faForStaff,
    requireReview: s.requireReview,
    paymentInstructions: s.paymentInstructions ?? '',
    paymentLink: s.paymentLink ?? '',
    // The texts in force (the product's defaults until the lab saves its own).
    certificationTemplate: s.certificationTemplate,
    limitingConditionsTemplate: s.limitingConditionsTemplate,
    revalueAfterMonths: s.revalueAfterMonths,
    taxFilingWindowMonths: s.taxFilingWindowMonths,
  };
};

/** JPEG or PNG, under 2MB (the server checks the content again). */
function logoError(file: File | null): string | null {
  if (!file) return null;
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type))
    return 'Only JPEG or PNG files are allowed';
  if (file.size >= MAX_IMAGE_BYTES) return 'File size must be less than 2MB';
  return null;
}

function CurrentLogo({ path }: { path: string | null }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!path) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    fetchBlob(path)
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => toast.error('Error', 'Failed to load logo image'));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [path]);
  if (!path) return <Text c="gray.7">No logo uploaded.</Text>;
  return url ? (
    <Image src={url} alt="Current lab logo" h={80} w="auto" fit="contain" />
  ) : (
    <Loader size="sm" aria-label="Loading logo" />
  );
}

export function SettingsTab() {
  const settings = useQuery(labSettingsQuery());
  if (settings.isPending) return <RowsSkeleton label="Loading settings..." rows={4} />;
  if (settings.isError)
    return (
      <LoadError onRetry={() => settings.refetch()} retrying={settings.isFetching}>
        {`Failed to load settings: ${reason(settings.error)}`}
      </LoadError>
    );
  // Saved or refreshed settings start the form afresh with what the server now holds.
  return <SettingsForm key={settings.dataUpdatedAt} settings={settings.data} />;
}

/** The lab settings form: the contract's schema checks it on save; the logo is checked when chosen. */
function SettingsForm({ settings }: { settings: LabSettings }) {
  const save = useSaveLabSettings();
  const [logo, setLogo] = useState<File | null>(null);
  // The two long texts open on request, so the form stays short enough to see Save at once.
  const [textsOpen, setTextsOpen] = useState(false);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: toValues(settings),
    validate: schemaResolver(labSettingsRequest, { sync: true }),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const { hasErrors, errors } = form.validate();
    const fileError = logoError(logo);
    if (hasErrors || fileError) {
      if (errors.certificationTemplate || errors.limitingConditionsTemplate) setTextsOpen(true);
      focusFirstError(fileError ? { ...errors, logo: fileError } : errors);
      return;
    }
    // The parsed values carry empty fields as null (docs/product/api.md).
    save.mutate(
      { settings: labSettingsRequest.parse(form.getValues()), logo },
      {
        onSuccess: () => {
          toast.success('Lab settings updated');
          setLogo(null);
        },
        onError: (err) => toast.error('Error', `Failed to update lab settings: ${reason(err)}`),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Lab settings">
      <Stack gap="md" maw={1100}>
        {neverSaved(settings) ? (
          <Alert color="blue" variant="light" title="Not saved yet">
            These are the details the public site shows today. Check them, add your website and certification
            number, then Save Settings.
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {FIELDS.map((f) => (
            <TextInput
              key={f.name}
              id={`lab-${f.name}`}
              name={f.name}
              label={f.label}
              type={f.type ?? 'text'}
              description={f.name === 'website' ? 'For example heritagevaluationlab.com' : undefined}
              withAsterisk={f.name === 'labName'}
              {...form.getInputProps(f.name)}
            />
          ))}
        </SimpleGrid>
        <PriceListFields form={form} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Textarea
            id="lab-paymentInstructions"
            name="paymentInstructions"
            label="Payment instructions"
            description="Printed on every invoice and in its mail: bank details, terms, what to quote as the reference."
            autosize
            minRows={3}
            maxLength={MAX_PAYMENT_INSTRUCTIONS}
            {...form.getInputProps('paymentInstructions')}
          />
          <TextInput
            id="lab-paymentLink"
            name="paymentLink"
            type="url"
            label="Payment link"
            description="An online payment page, if the lab has one (optional)."
            {...form.getInputProps('paymentLink')}
          />
        </SimpleGrid>
        <Stack gap="md" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
          <Text component="legend" fw={600} mb="xs">
            Appraisal reports
          </Text>
          <Text size="sm" c="dark.3">
            Every valuation report states the lab's limiting conditions (the expert may change them for one
            report) and ends with its certification, signed by the analyst and the reviewer.
          </Text>
          <Group>
            <Button
              variant="light"
              size="xs"
              aria-expanded={textsOpen}
              aria-controls={textsOpen ? 'lab-appraisal-texts' : undefined}
              onClick={() => setTextsOpen((o) => !o)}
            >
              {textsOpen ? 'Hide the report texts' : 'Edit the limiting conditions and certification'}
            </Button>
          </Group>
          {textsOpen ? (
            <Stack gap="md" id="lab-appraisal-texts">
              {REPORT_TEXTS.map(({ name, label, description }) => (
                <LazyNotesEditor
                  key={name}
                  loading="Loading the report texts editor"
                  name={name}
                  label={label}
                  description={description}
                  value={form.values[name]}
                  onChange={(html) => form.setFieldValue(name, html)}
                  error={form.errors[name] as string | undefined}
                />
              ))}
            </Stack>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              id="lab-revalueAfterMonths"
              name="revalueAfterMonths"
              label="Re-valuation after (months)"
              description="A value's re-valuation date: its effective date plus these months, unless the expert sets one."
              min={1}
              max={MAX_REVALUE_AFTER_MONTHS}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              {...form.getInputProps('revalueAfterMonths')}
            />
            <NumberInput
              id="lab-taxFilingWindowMonths"
              name="taxFilingWindowMonths"
              label="Tax filing window (months)"
              description="For a charitable donation: how long after the contribution date a value's effective date may be."
              min={0}
              max={MAX_TAX_FILING_WINDOW_MONTHS}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              {...form.getInputProps('taxFilingWindowMonths')}
            />
          </SimpleGrid>
        </Stack>
        <Switch
          id="lab-require2faForStaff"
          name="require2faForStaff"
          label="Require two-factor sign-in for staff and admins"
          description="Staff and admins without it are taken to their profile to set it up, and can do nothing else until they have."
          {...form.getInputProps('require2faForStaff', { type: 'checkbox' })}
        />
        <Switch
          id="lab-requireReview"
          name="requireReview"
          label="Require a second expert's review before a report is issued"
          description="A report then waits, unseen by the customer, until another staff member or an admin approves it; its author cannot. The PDF names both the analyst and the reviewer."
          {...form.getInputProps('requireReview', { type: 'checkbox' })}
        />
        <FilePicker
          name="logo"
          label="Logo"
          hint="JPEG or PNG, under 2MB"
          accept="image/jpeg,image/png"
          buttonText="Choose a logo"
          multiple={false}
          files={logo ? [logo] : []}
          error={logoError(logo)}
          onAdd={(added) => setLogo(added[0] ?? null)}
          onRemove={() => setLogo(null)}
          current={
            <div>
              <Text size="sm" fw={500} mb={4}>
                Current logo
              </Text>
              <CurrentLogo path={settings.logo} />
            </div>
          }
        />
        <Group>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Settings'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
