import { Anchor, Container, List, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LAB_CONTACT_EMAIL } from '../../../components/lab-contact';
import { PageHero } from '../../../components/PageHero';
import { usePageTitle } from '../../../lib/use-page-title';

export type LegalTopic = 'privacy' | 'terms' | 'cookies';

const UPDATED = 'Last updated: November 2026';
const mail = <Anchor href={`mailto:${LAB_CONTACT_EMAIL}`}>{LAB_CONTACT_EMAIL}</Anchor>;

const PAGES: Record<LegalTopic, { title: string; description: string; body: ReactNode }> = {
  privacy: {
    title: 'Privacy Policy',
    description: 'What the Heritage Valuation Laboratory stores about you, why, and how to have it removed.',
    body: (
      <>
        <Text>
          This policy explains what we store when you use this web site, and why. We only keep what we need to
          value your items and to run your account.
        </Text>
        <Title order={2} size="h3">
          What we store
        </Title>
        <List spacing="xs">
          <List.Item>
            <strong>Account data:</strong> your e-mail address, first and last name, phone number, profile
            picture and role. Your password is stored only as a one-way hash; nobody at the lab can read it.
            Staff accounts may also store a signature image used on reports.
          </List.Item>
          <List.Item>
            <strong>Submissions and uploads:</strong> the details you enter about an item, the owner or
            representative details you provide, and the photos and documents you upload.
          </List.Item>
          <List.Item>
            <strong>Reports:</strong> the analysis results, the issued PDF reports and their verification
            codes.
          </List.Item>
          <List.Item>
            <strong>Contact messages:</strong> the name, e-mail, phone, subject and message you send through
            the contact form.
          </List.Item>
          <List.Item>
            <strong>Verification checks:</strong> when someone verifies a report we log the time, the code and
            the result, never the visitor’s full network address.
          </List.Item>
        </List>
        <Title order={2} size="h3">
          How we use it
        </Title>
        <Text>
          To value and authenticate your items, to send you reports, to answer your messages and to keep the
          service secure. We do not sell your data, show advertising or share it with anyone except where the
          law requires.
        </Text>
        <Title order={2} size="h3">
          Your choices
        </Title>
        <Text>
          You can update your profile at any time. To receive a copy of your data or have your account and
          uploads deleted, write to {mail}.
        </Text>
      </>
    ),
  },
  terms: {
    title: 'Terms of Service',
    description:
      'The terms for using the Heritage Valuation Laboratory web site, submitting items and using reports.',
    body: (
      <>
        <Text>By creating an account or submitting an item you agree to these terms.</Text>
        <Title order={2} size="h3">
          Your account
        </Title>
        <Text>
          Keep your password to yourself and tell us if you think someone else has used your account. You are
          responsible for the accuracy of the information you submit.
        </Text>
        <Title order={2} size="h3">
          Submissions and uploads
        </Title>
        <Text>
          Upload only photos and documents you have the right to share. You keep ownership of them; you allow
          us to use them to assess your item and to include them in its report.
        </Text>
        <Title order={2} size="h3">
          Valuations and reports
        </Title>
        <Text>
          A valuation is our expert opinion on the date of the report, based on the item and information we
          received. Markets change, and a valuation is not an offer to buy. Turnaround times (standard 7-10
          business days, urgent 3-5 business days for an additional fee) are targets, not guarantees. Each
          report carries a verification code; a report that has been withdrawn or replaced is shown as such
          when verified.
        </Text>
        <Title order={2} size="h3">
          Contact
        </Title>
        <Text>Questions about these terms: {mail}.</Text>
      </>
    ),
  },
  cookies: {
    title: 'Cookies',
    description:
      'This site sets no tracking or advertising cookies. Here is what it keeps in your browser and why.',
    body: (
      <>
        <Text>
          This site does not use tracking, analytics or advertising cookies, and it does not load anything
          from other web sites.
        </Text>
        <Title order={2} size="h3">
          What is kept in your browser
        </Title>
        <List spacing="xs">
          <List.Item>
            <strong>Sign-in token</strong> (local storage, key <code>token</code>): keeps you logged in. It is
            removed when you log out or when it expires.
          </List.Item>
          <List.Item>
            <strong>Submission draft</strong> (local storage): when you press “Save as Draft” on the
            submission form, the values you typed are saved in your browser only, so you can continue later.
            You can discard the draft at any time.
          </List.Item>
        </List>
        <Title order={2} size="h3">
          Removing it
        </Title>
        <Text>
          Logging out removes the token. Clearing this site’s data in your browser settings removes everything
          listed above. See also our{' '}
          <Anchor component={Link} to="/privacy">
            Privacy Policy
          </Anchor>
          .
        </Text>
      </>
    ),
  },
};

/** Privacy Policy, Terms of Service and Cookies: short and true to what the product stores. */
export function LegalPage({ topic }: { topic: LegalTopic }) {
  const page = PAGES[topic];
  usePageTitle(page.title, page.description);
  return (
    <>
      <PageHero title={page.title} lead={UPDATED} />
      <Container size="md" py={{ base: 40, md: 64 }} className="legal">
        {page.body}
      </Container>
    </>
  );
}
