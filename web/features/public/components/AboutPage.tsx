import { Avatar, Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAward, IconEye, IconHeartHandshake } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHero } from '../../../components/PageHero';
import { usePageTitle } from '../../../lib/use-page-title';
import { STATS, TEAM, VALUES } from '../content';

const VALUE_ICONS = { Honesty: IconHeartHandshake, Transparency: IconEye, Dedication: IconAward } as const;

export function AboutPage() {
  usePageTitle(
    'About Us',
    'Our story, our values of honesty, transparency and dedication, our mission and the appraisers behind every report.',
  );
  return (
    <>
      <PageHero
        eyebrow="About Us"
        title="Fifteen years of expert appraisal"
        lead="We are an independent laboratory of appraisers, researchers and conservators who help people understand the objects they care about."
      />

      <Container size="lg" py={{ base: 48, md: 80 }}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48}>
          <Stack gap="md">
            <Title order={2} fz={{ base: 28, sm: 34 }}>
              Our Story
            </Title>
            <Text c="dark.4">
              The laboratory began in a small Boston workshop, where our founder valued silver and clocks for
              neighbours and local auction houses. Word spread, and collectors started bringing jewelry,
              paintings, furniture and rare books.
            </Text>
            <Text c="dark.4">
              Today a team of specialists covers every major category of antiques and collectibles. We still
              work the way we began: one item at a time, examined in person, documented carefully, and
              explained in plain language.
            </Text>
          </Stack>
          <Card radius="lg" padding="xl" className="cta">
            <Title order={2} c="white" fz={{ base: 26, sm: 30 }} mb="sm">
              Our Mission
            </Title>
            <Text c="navy.1">
              To give every owner an honest, independent and verifiable account of what they own, so that they
              can insure, sell, share or simply enjoy it with confidence.
            </Text>
          </Card>
        </SimpleGrid>
      </Container>

      <Box bg="navy.0" py={{ base: 48, md: 80 }}>
        <Container size="lg">
          <Title order={2} ta="center" fz={{ base: 28, sm: 34 }} mb={40}>
            Our Values
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {VALUES.map((v) => {
              const Icon = VALUE_ICONS[v.title];
              return (
                <Card key={v.title} padding="xl" radius="lg" withBorder shadow="sm">
                  <Icon size={36} stroke={1.5} color="var(--mantine-color-gold-8)" aria-hidden="true" />
                  <Title order={3} size="h4" mt="md" mb="xs">
                    {v.title}
                  </Title>
                  <Text c="dark.4" size="sm">
                    {v.description}
                  </Text>
                </Card>
              );
            })}
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, md: 80 }}>
        <Title order={2} ta="center" fz={{ base: 28, sm: 34 }} mb="xs">
          Our Team
        </Title>
        <Text ta="center" c="dark.3" mb={40}>
          Specialists who examine, research and sign every report.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
          {TEAM.map((m) => (
            <Card key={m.name} padding="lg" radius="lg" withBorder ta="center">
              <Avatar size={72} radius="xl" color="navy" variant="filled" mx="auto" aria-hidden="true">
                {m.initials}
              </Avatar>
              <Title order={3} size="h5" mt="md">
                {m.name}
              </Title>
              <Text size="sm" c="gold.9" fw={600}>
                {m.role}
              </Text>
              <Text size="sm" c="dark.4" mt="xs">
                {m.bio}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <Box className="page-hero" py={{ base: 48, md: 64 }}>
        <Container size="lg">
          <Title order={2} c="white" ta="center" fz={{ base: 26, sm: 32 }} mb={32}>
            By the Numbers
          </Title>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg" ta="center">
            {STATS.map((s) => (
              <div key={s.label}>
                <Text className="stat-value" c="gold.3" style={{ color: '#e5c170' }}>
                  {s.value}
                </Text>
                <Text c="navy.1" size="sm" fw={500}>
                  {s.label}
                </Text>
              </div>
            ))}
          </SimpleGrid>
          <Group justify="center" mt={40}>
            <Button component={Link} to="/contact" size="md" color="gold.5" c="navy.9">
              Talk to an appraiser
            </Button>
          </Group>
        </Container>
      </Box>
    </>
  );
}
