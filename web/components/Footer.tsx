import { Anchor, Box, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram, IconBrandLinkedin, IconBrandX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LAB_FIXED_ADDRESS, LAB_FIXED_PHONE } from '../../common/domain/reports';

export const LAB_CONTACT_EMAIL = 'info@heritagevaluationlab.com';

const quickLinks = [
  { label: 'Home', to: '/' },
  { label: 'About', to: '/about' },
  { label: 'Services', to: '/services' },
  { label: 'Contact', to: '/contact' },
];
const services = [
  'Expert Valuations',
  'Authenticity Verification',
  'Condition Assessment',
  'Provenance Research',
  'Detailed Reports',
];
const socials = [
  { label: 'Facebook', Icon: IconBrandFacebook },
  { label: 'Instagram', Icon: IconBrandInstagram },
  { label: 'LinkedIn', Icon: IconBrandLinkedin },
  { label: 'X (Twitter)', Icon: IconBrandX },
];

export function Footer() {
  return (
    <Box component="footer" bg="navy.9" c="gray.3" py={48} mt="auto">
      <Container size="xl">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xl">
          <Stack gap="xs">
            <Title order={2} size="h4" c="white">
              Heritage Valuation Laboratory
            </Title>
            <Text size="sm">
              Independent valuation, authentication and condition reports for antiques and collectibles.
            </Text>
            <Group gap="xs" aria-label="Social links" role="group">
              {socials.map(({ label, Icon }) => (
                <Anchor
                  key={label}
                  href="#"
                  c="gray.3"
                  aria-label={label}
                  onClick={(e) => e.preventDefault()}
                >
                  <Icon size={22} aria-hidden="true" />
                </Anchor>
              ))}
            </Group>
          </Stack>
          <Stack gap={6} component="nav" aria-label="Quick links">
            <Title order={2} size="h5" c="white">
              Quick Links
            </Title>
            {quickLinks.map((l) => (
              <Anchor key={l.to} component={Link} to={l.to} c="gray.3" size="sm">
                {l.label}
              </Anchor>
            ))}
          </Stack>
          <Stack gap={6}>
            <Title order={2} size="h5" c="white">
              Services
            </Title>
            {services.map((s) => (
              <Text key={s} size="sm">
                {s}
              </Text>
            ))}
          </Stack>
          <Stack gap={6}>
            <Title order={2} size="h5" c="white">
              Contact
            </Title>
            <Text size="sm">{LAB_FIXED_ADDRESS}</Text>
            <Anchor href={`tel:${LAB_FIXED_PHONE.replace(/[^+\d]/g, '')}`} c="gray.3" size="sm">
              {LAB_FIXED_PHONE}
            </Anchor>
            <Anchor href={`mailto:${LAB_CONTACT_EMAIL}`} c="gray.3" size="sm">
              {LAB_CONTACT_EMAIL}
            </Anchor>
          </Stack>
        </SimpleGrid>
        <Group
          justify="space-between"
          mt="xl"
          pt="md"
          style={{ borderTop: '1px solid var(--mantine-color-navy-7)' }}
        >
          <Text size="xs">
            © {new Date().getFullYear()} Heritage Valuation Laboratory. All rights reserved.
          </Text>
          <Group gap="md">
            <Anchor component={Link} to="/privacy" c="gray.3" size="xs">
              Privacy Policy
            </Anchor>
            <Anchor component={Link} to="/terms" c="gray.3" size="xs">
              Terms of Service
            </Anchor>
            <Anchor component={Link} to="/cookies" c="gray.3" size="xs">
              Cookies
            </Anchor>
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
