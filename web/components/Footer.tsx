import { Anchor, Box, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram, IconBrandLinkedin, IconBrandX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LAB_ADDRESS, LAB_CONTACT_EMAIL, LAB_PHONE, LAB_PHONE_HREF } from './lab-contact';

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
  'Detailed Reports',
  'Provenance Research',
  'Market Trends Analysis',
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
      <Container size="lg">
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
              Our Services
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
            <Text size="sm" component="address" style={{ fontStyle: 'normal' }}>
              {LAB_ADDRESS}
            </Text>
            <Anchor href={LAB_PHONE_HREF} c="gray.3" size="sm">
              {LAB_PHONE}
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
