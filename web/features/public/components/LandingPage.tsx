import {
  Box,
  Button,
  Card,
  Container,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconArrowRight, IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';
import { CORE_SERVICES, STATS } from '../content';
import { HeroIllustration } from './HeroIllustration';
import { ServiceIcon } from './ServiceIcon';

const FEATURED = CORE_SERVICES.slice(0, 3);

/** '/' for visitors (docs/product/screens.md); logged-in users get the client home instead. */
export function LandingPage() {
  usePageTitle(
    '',
    'Expert valuations, authenticity verification and condition reports for antiques and collectibles, from a laboratory with 15+ years of experience.',
  );
  const { user } = useSession();
  const submitTo = user ? '/submit-sample' : '/login';

  return (
    <>
      <Box className="page-hero landing-hero">
        <Container size="lg" py={{ base: 48, md: 88 }}>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
            <Stack gap="lg">
              <Text className="eyebrow">Antiques &amp; Collectibles Valuation Laboratory</Text>
              <Title order={1} c="white" fz={{ base: 34, sm: 48 }} lh={1.1}>
                Discover the true value of your treasures
              </Title>
              <Text c="navy.1" fz={{ base: 'md', sm: 'lg' }}>
                Independent experts value, authenticate and assess your antiques, and issue a detailed report
                that anyone can verify.
              </Text>
              <Group gap="sm">
                <Button
                  component={Link}
                  to={submitTo}
                  size="lg"
                  color="gold.5"
                  c="navy.9"
                  rightSection={<IconArrowRight size={18} aria-hidden="true" />}
                >
                  Submit Your Sample
                </Button>
                <Button component={Link} to="/about" size="lg" variant="outline" className="on-dark">
                  Learn More
                </Button>
              </Group>
            </Stack>
            <Box maw={460} mx="auto" w="100%" visibleFrom="sm">
              <HeroIllustration />
            </Box>
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" mt={-36} pos="relative">
        <Card shadow="md" padding="lg" radius="lg" withBorder>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg" className="stats">
            {STATS.map((s) => (
              <div key={s.label}>
                <Text className="stat-value">{s.value}</Text>
                <Text c="dark.3" size="sm" fw={500}>
                  {s.label}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Card>
      </Container>

      <Container size="lg" py={{ base: 56, md: 88 }}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48}>
          <Stack gap="md">
            <Text className="eyebrow eyebrow-dark">About Us</Text>
            <Title order={2} fz={{ base: 28, sm: 36 }}>
              A laboratory built on expertise and trust
            </Title>
            <Text c="dark.4">
              For more than fifteen years our appraisers have helped collectors, families, estates and
              insurers understand what they own. Each item is examined by a specialist in its field and
              documented in a report you can rely on.
            </Text>
            <Button component={Link} to="/about" variant="light" w="fit-content">
              Read our story
            </Button>
          </Stack>
          <List
            spacing="md"
            icon={
              <ThemeIcon color="gold" variant="light" radius="xl" size={28} aria-hidden="true">
                <IconCheck size={16} color="var(--mantine-color-gold-9)" />
              </ThemeIcon>
            }
            center
          >
            <List.Item>Certified appraisers with specialist knowledge in every major category</List.Item>
            <List.Item>Secure, insured handling from the moment your item arrives</List.Item>
            <List.Item>Reports with a verification code that anyone can check online</List.Item>
            <List.Item>Standard turnaround of 7-10 business days, urgent in 3-5</List.Item>
          </List>
        </SimpleGrid>
      </Container>

      <Box bg="navy.0" py={{ base: 56, md: 88 }}>
        <Container size="lg">
          <Stack gap={4} align="center" ta="center" mb={40}>
            <Text className="eyebrow eyebrow-dark">What We Do</Text>
            <Title order={2} fz={{ base: 28, sm: 36 }}>
              Our Services
            </Title>
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {FEATURED.map((s) => (
              <Card key={s.title} padding="xl" radius="lg" shadow="sm" withBorder className="lift">
                <ServiceIcon name={s.icon} />
                <Title order={3} size="h4" mt="md" mb="xs">
                  {s.title}
                </Title>
                <Text c="dark.4" size="sm">
                  {s.description}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <Group justify="center" mt={32}>
            <Button component={Link} to="/services" variant="outline">
              View all services
            </Button>
          </Group>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 56, md: 88 }}>
        <Card radius="lg" padding={0} className="cta">
          <Stack align="center" ta="center" gap="md" p={{ base: 32, sm: 56 }}>
            <Title order={2} c="white" fz={{ base: 28, sm: 36 }}>
              Ready to learn what your item is worth?
            </Title>
            <Text c="navy.1" maw={560}>
              Create an account, describe your item and upload a few photos. We will reply with a quote.
            </Text>
            <Button component={Link} to="/login" size="lg" color="gold.5" c="navy.9">
              Get Started Today
            </Button>
          </Stack>
        </Card>
      </Container>
    </>
  );
}
