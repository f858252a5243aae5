import {
  Anchor,
  Box,
  Button,
  Card,
  Container,
  Grid,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconClock, IconMail, IconMapPin, IconPhone, IconSend } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session';
import {
  CONTACT_HONEYPOT_FIELD,
  CONTACT_MESSAGE_MAX,
  CONTACT_NAME_MAX,
  CONTACT_SUBJECT_LABELS,
  CONTACT_SUBJECTS,
} from '../../../../common/contracts/contact-constants';
import type { ContactRequest } from '../../../../common/contracts/contact';
import {
  BUSINESS_HOURS,
  BUSINESS_HOURS_NOTE,
  LAB_ADDRESS,
  LAB_CONTACT_EMAIL,
  LAB_PHONE,
  LAB_PHONE_HREF,
} from '../../../components/lab-contact';
import { PageHero } from '../../../components/PageHero';
import { EmailField } from '../../../components/EmailField';
import { focusFirstError, focusInView, lazyContract } from '../../../lib/forms';
import { usePublicForm } from '../../../lib/public-form';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useSendContactMessage } from '../api';

type ContactFormValues = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
  website: string;
};

const EMPTY: ContactFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  subject: '',
  message: '',
  website: '',
};

export const CONTACT_SUCCESS = {
  title: 'Message Sent',
  message: "Thank you for your inquiry. We'll get back to you soon!",
};
export const CONTACT_FAILURE = 'Failed to send message. Please try again.';

const contract = lazyContract(
  async () => (await import('../../../../common/contracts/contact')).contactRequest,
);

export function ContactPage() {
  usePageTitle(
    'Contact Us',
    'Contact the Heritage Valuation Laboratory: address, phone, e-mail, business hours and a form to send us a message.',
  );
  const [sent, setSent] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const send = useSendContactMessage();
  const { user } = useSession();
  const [params] = useSearchParams();
  const askedSubject = params.get('subject') ?? '';
  const subject = (CONTACT_SUBJECTS as readonly string[]).includes(askedSubject) ? askedSubject : '';
  const form = usePublicForm<ContactFormValues>({
    initialValues: { ...EMPTY, subject },
    contract,
  });

  // A signed-in client need not type who they are, and a link may choose the subject
  // (?subject=consultation-request); 'Send Another Message' starts from the same values.
  useEffect(() => {
    const known: ContactFormValues = {
      ...EMPTY,
      subject,
      ...(user
        ? {
            firstName: user.firstName ?? '',
            lastName: user.lastName ?? '',
            email: user.email,
            phone: user.phone ?? '',
          }
        : {}),
    };
    // What the visitor already typed stays; an untouched form takes the known values.
    const untouched = !form.isDirty();
    form.setInitialValues(known);
    if (untouched) form.setValues(known);
    // Only when the user (or the asked subject) changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user, subject]);

  const submit = form.onSubmit((values) => {
    send.mutate(values as ContactRequest, {
      onSuccess: () => {
        toast.success(CONTACT_SUCCESS.title, CONTACT_SUCCESS.message);
        form.reset();
        setSent(true);
        requestAnimationFrame(() => focusInView(headingRef.current));
      },
      onError: () => toast.error('Error', CONTACT_FAILURE),
    });
  }, focusFirstError);

  return (
    <>
      <PageHero
        eyebrow="Get in Touch"
        title="Contact Us"
        lead="Questions about a valuation, a quote or a submission? Our appraisers are happy to help."
      />
      <Container size="lg" py={{ base: 40, md: 72 }}>
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="lg">
              <Card withBorder radius="lg" padding="xl" shadow="sm">
                <Title order={2} size="h3" mb="md">
                  Contact Information
                </Title>
                <Stack gap="md">
                  <InfoRow icon={<IconMapPin size={20} />} label="Address">
                    <Text component="address" style={{ fontStyle: 'normal' }}>
                      {LAB_ADDRESS}
                    </Text>
                  </InfoRow>
                  <InfoRow icon={<IconPhone size={20} />} label="Phone">
                    <Anchor href={LAB_PHONE_HREF}>{LAB_PHONE}</Anchor>
                  </InfoRow>
                  <InfoRow icon={<IconMail size={20} />} label="Email">
                    <Anchor href={`mailto:${LAB_CONTACT_EMAIL}`} style={{ wordBreak: 'break-all' }}>
                      {LAB_CONTACT_EMAIL}
                    </Anchor>
                  </InfoRow>
                </Stack>
              </Card>
              <Card withBorder radius="lg" padding="xl" shadow="sm">
                <Group gap="sm" mb="md">
                  <IconClock size={22} color="var(--mantine-color-navy-8)" aria-hidden="true" />
                  <Title order={2} size="h3">
                    Business Hours
                  </Title>
                </Group>
                {/* A plain table: Mantine's Table brings its scroll container's ScrollArea (20 KB gzip). */}
                <Box component="table" w="100%" style={{ borderCollapse: 'collapse' }}>
                  <tbody>
                    {BUSINESS_HOURS.map((h) => (
                      <tr key={h.days}>
                        <Box component="th" scope="row" fw={600} ta="left" py={6}>
                          {h.days}
                        </Box>
                        <Box component="td" ta="right" py={6}>
                          {h.hours}
                        </Box>
                      </tr>
                    ))}
                  </tbody>
                </Box>
                <Text size="sm" c="dark.3" mt="sm">
                  {BUSINESS_HOURS_NOTE}
                </Text>
              </Card>
            </Stack>
          </Grid.Col>

          <Grid.Col span={{ base: 12, md: 7 }}>
            <Card withBorder radius="lg" padding="xl" shadow="sm">
              {sent ? (
                <Stack align="center" ta="center" gap="md" py="xl" aria-live="polite">
                  <ThemeIcon size={72} radius="xl" color="teal" variant="light" aria-hidden="true">
                    <IconCircleCheck size={44} />
                  </ThemeIcon>
                  {/* Scrolled to with room for the check mark above it below the sticky header. */}
                  <Title order={2} size="h3" ref={headingRef} tabIndex={-1} style={{ scrollMarginTop: 208 }}>
                    Message Sent Successfully!
                  </Title>
                  <Text c="dark.4" maw={420}>
                    Thank you for contacting us. We will reply within 24 hours.
                  </Text>
                  <Button variant="outline" onClick={() => setSent(false)}>
                    Send Another Message
                  </Button>
                </Stack>
              ) : (
                <form onSubmit={submit} noValidate aria-labelledby="contact-form-title">
                  <Title order={2} size="h3" mb={4} id="contact-form-title">
                    Send us a Message
                  </Title>
                  <Text size="sm" c="dark.3" mb="lg">
                    Fields marked with * are required. We reply within 24 hours.
                  </Text>
                  <Stack gap="md">
                    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                      <TextInput
                        label="First Name"
                        name="firstName"
                        autoComplete="given-name"
                        withAsterisk
                        maxLength={CONTACT_NAME_MAX}
                        {...form.getInputProps('firstName')}
                      />
                      <TextInput
                        label="Last Name"
                        name="lastName"
                        autoComplete="family-name"
                        withAsterisk
                        maxLength={CONTACT_NAME_MAX}
                        {...form.getInputProps('lastName')}
                      />
                    </SimpleGrid>
                    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                      <EmailField {...form.getInputProps('email')} />
                      <TextInput
                        label="Phone (optional)"
                        name="phone"
                        type="tel"
                        autoComplete="tel"
                        {...form.getInputProps('phone')}
                      />
                    </SimpleGrid>
                    <NativeSelect
                      label="Subject"
                      name="subject"
                      withAsterisk
                      data={[
                        { value: '', label: 'Select a subject' },
                        ...CONTACT_SUBJECTS.map((s) => ({ value: s, label: CONTACT_SUBJECT_LABELS[s] })),
                      ]}
                      {...form.getInputProps('subject')}
                    />
                    <Textarea
                      label="Message"
                      name="message"
                      withAsterisk
                      autosize
                      minRows={5}
                      maxRows={12}
                      maxLength={CONTACT_MESSAGE_MAX}
                      description={`${form.values.message.length} / ${CONTACT_MESSAGE_MAX}`}
                      {...form.getInputProps('message')}
                    />
                    {/* Bots fill every field; people never see this one. */}
                    <div className="honeypot" aria-hidden="true">
                      <label htmlFor="contact-website">Leave this field empty</label>
                      <input
                        id="contact-website"
                        type="text"
                        name={CONTACT_HONEYPOT_FIELD}
                        tabIndex={-1}
                        autoComplete="off"
                        {...form.getInputProps('website')}
                      />
                    </div>
                    <Group justify="flex-end">
                      <Button
                        type="submit"
                        size="md"
                        loading={send.isPending}
                        rightSection={<IconSend size={18} aria-hidden="true" />}
                      >
                        Send Message
                      </Button>
                    </Group>
                  </Stack>
                </form>
              )}
            </Card>
          </Grid.Col>
        </Grid>
      </Container>
      <Box pb={24} />
    </>
  );
}

function InfoRow({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <Group align="flex-start" wrap="nowrap" gap="md">
      <ThemeIcon size={40} radius="md" variant="light" color="gold" aria-hidden="true">
        <Box c="gold.9" style={{ display: 'flex' }}>
          {icon}
        </Box>
      </ThemeIcon>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={700} c="navy.9">
          {label}
        </Text>
        {children}
      </div>
    </Group>
  );
}
