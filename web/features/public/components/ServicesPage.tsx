import { Badge, Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHero } from '../../../components/PageHero';
import { useSession } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';
import { ADDITIONAL_SERVICES, CORE_SERVICES, GALLERY, PROCESS, TURNAROUND } from '../content';
import { ServiceIcon } from './ServiceIcon';
import { STANDARD_BUSINESS_DAYS, URGENT_BUSINESS_DAYS } from '../../../../common/domain/turnaround';

export function ServicesPage() {
  usePageTitle(
    'Services',
    'Expert valuations, authenticity verification, condition assessment, detailed reports, provenance research and market trends analysis. Standard turnaround 7-10 business days.',
  );
  const { user } = useSession();
  return (
    <>
      <PageHero
        eyebrow="Our Services"
        title="Everything your antiques need"
        lead="From a single heirloom to an entire estate, our specialists value, authenticate and document your items."
      />

      <Container size="lg" py={{ base: 48, md: 80 }}>
        <Title order={2} fz={{ base: 28, sm: 34 }} mb="xs">
          Core Services
        </Title>
        <Text c="dark.3" mb={32}>
          Choose any combination when you submit an item.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          {CORE_SERVICES.map((s) => (
            <Card key={s.title} padding="xl" radius="lg" withBorder shadow="sm" className="lift">
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

        <Title order={2} fz={{ base: 24, sm: 28 }} mt={56} mb={24}>
          Additional Services
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          {ADDITIONAL_SERVICES.map((s) => (
            <Group key={s.title} align="flex-start" wrap="nowrap" gap="md">
              <ServiceIcon name={s.icon} size={44} />
              <div>
                <Title order={3} size="h5" mb={4}>
                  {s.title}
                </Title>
                <Text c="dark.4" size="sm">
                  {s.description}
                </Text>
              </div>
            </Group>
          ))}
        </SimpleGrid>
      </Container>

      <Box bg="navy.0" py={{ base: 48, md: 72 }}>
        <Container size="lg">
          <Title order={2} fz={{ base: 28, sm: 34 }} mb={24}>
            Turnaround Times
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {TURNAROUND.map((t) => (
              <Card key={t.title} padding="xl" radius="lg" withBorder>
                <Group gap="sm" mb="xs">
                  <IconClock size={26} color="var(--mantine-color-navy-8)" aria-hidden="true" />
                  <Title order={3} size="h4">
                    {t.title}
                  </Title>
                </Group>
                <Text fz={28} fw={700} ff="heading" c="navy.9">
                  {t.time}
                </Text>
                <Text c="dark.4" size="sm" mt="xs">
                  {t.description}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <Text c="dark.4" mt="lg" data-testid="turnaround-rule">
            {`The expected completion date on your dashboard is the end of this range: ${STANDARD_BUSINESS_DAYS} business days for standard and ${URGENT_BUSINESS_DAYS} for urgent, counted from your submission (or from your acceptance of a quote), weekends excluded.`}
          </Text>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, md: 80 }}>
        <Title order={2} fz={{ base: 28, sm: 34 }} mb="xs">
          What We Value
        </Title>
        <Text c="dark.3" mb={32}>
          A few of the categories our specialists examine every week.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
          {GALLERY.map((g) => (
            <Card
              key={g.category}
              padding={0}
              radius="lg"
              withBorder
              shadow="sm"
              className="lift"
              component="figure"
              m={0}
            >
              <img
                src={g.image}
                alt={g.alt}
                loading="lazy"
                decoding="async"
                width={400}
                height={300}
                className="gallery-image"
              />
              <Stack gap={6} p="md" component="figcaption">
                <Badge variant="light" color="navy" w="fit-content">
                  {g.category}
                </Badge>
                <Title order={3} size="h5">
                  {g.title}
                </Title>
                <Text size="sm" c="dark.4">
                  {g.description}
                </Text>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <Box bg="navy.0" py={{ base: 48, md: 80 }}>
        <Container size="lg">
          <Title order={2} ta="center" fz={{ base: 28, sm: 34 }} mb={40}>
            How It Works
          </Title>
          <SimpleGrid
            cols={{ base: 1, sm: 2, md: 4 }}
            spacing="xl"
            component="ol"
            className="process"
            p={0}
            m={0}
          >
            {PROCESS.map((p, i) => (
              <Stack
                key={p.title}
                component="li"
                align="center"
                ta="center"
                gap="xs"
                style={{ listStyle: 'none' }}
              >
                <span className="step-number" aria-hidden="true">
                  {i + 1}
                </span>
                <Title order={3} size="h4">
                  {p.title}
                </Title>
                <Text size="sm" c="dark.4">
                  {p.description}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, md: 80 }}>
        <Card radius="lg" padding={0} className="cta">
          <Stack align="center" ta="center" gap="md" p={{ base: 32, sm: 56 }}>
            <Title order={2} c="white" fz={{ base: 26, sm: 34 }}>
              Ready to get your item valued?
            </Title>
            <Text c="navy.1" maw={560}>
              Submit your item online in a few minutes, or contact us to arrange a consultation.
            </Text>
            <Group justify="center">
              <Button
                component={Link}
                to={user ? '/submit-sample' : '/login'}
                size="lg"
                color="gold.5"
                c="navy.9"
              >
                Submit Your Sample
              </Button>
              <Button component={Link} to="/contact" size="lg" variant="outline" className="on-dark">
                Contact Us
              </Button>
            </Group>
          </Stack>
        </Card>
      </Container>
    </>
  );
}
