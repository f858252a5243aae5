import {
  Anchor,
  Avatar,
  Box,
  Burger,
  Button,
  Container,
  Group,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink } from 'react-router';
import { useRef } from 'react';
import { isLabRole } from '../../common/domain/roles';
import { usePersonalImage } from '../lib/personal-image';
import { useSession } from '../lib/session';
import { LazyDrawer } from './LazyDrawer';
import classes from './NavBar.module.css';

type Item = { label: string; to: string };

/** Navigation items by role, exactly as docs/product/screens.md. */
export function navItems(user: { role: string } | null): Item[] {
  if (user && isLabRole(user.role)) {
    return [
      { label: 'Profile', to: '/profile' },
      { label: 'Dashboard', to: user.role === 'admin' ? '/admin' : '/staff' },
      { label: 'Verify Report', to: '/verify-report' },
    ];
  }
  const items: Item[] = [
    { label: 'Home', to: '/' },
    { label: 'About', to: '/about' },
    { label: 'Services', to: '/services' },
    { label: 'Verify Report', to: '/verify-report' },
    { label: 'Contact', to: '/contact' },
  ];
  if (user) {
    items.push(
      { label: 'Submit Sample', to: '/submit-sample' },
      { label: 'Profile', to: '/profile' },
      { label: 'Dashboard', to: '/dashboard' },
    );
  }
  return items;
}

/** The signed-in person's saved profile picture (the Profile link is in the menu); nothing without one. */
function NavAvatar({ path }: { path: string | null }) {
  const picture = usePersonalImage(path);
  if (!picture.url) return null;
  return <Avatar src={picture.url} alt="Your profile picture" size={36} radius="xl" />;
}

export function NavBar() {
  const { user, isLoading, logout } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Escape, the close button or a click outside: the focus goes back to the menu button. The drawer is
  // mounted already open the first time (it is loaded lazily), so its own focus return has no opener.
  const burgerRef = useRef<HTMLButtonElement>(null);
  const closeToBurger = () => {
    close();
    setTimeout(() => burgerRef.current?.focus(), 0);
  };
  const items = navItems(user);

  // While a stored token's profile loads, neither Login nor Logout is offered yet.
  const authButtons = (vertical: boolean) =>
    isLoading ? null : user ? (
      <Button
        variant="outline"
        color="navy"
        onClick={() => {
          close();
          void logout();
        }}
        fullWidth={vertical}
      >
        Logout
      </Button>
    ) : (
      <>
        <Button
          component={Link}
          to="/login"
          variant="subtle"
          color="navy"
          onClick={close}
          fullWidth={vertical}
        >
          Login
        </Button>
        <Button component={Link} to="/register" color="navy" onClick={close} fullWidth={vertical}>
          Sign Up
        </Button>
      </>
    );

  return (
    <Box component="header" className={classes.header}>
      <Container size="xl" h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Anchor
            component={Link}
            to="/"
            underline="never"
            className={classes.brand}
            aria-label="Heritage Valuation Lab, home"
          >
            <img src="/favicon.svg" alt="" width={32} height={32} />
            <Text component="span" fw={700} c="navy.8" visibleFrom="xs">
              Heritage Valuation Lab
            </Text>
          </Anchor>
          <Group component="nav" aria-label="Main" gap={4} visibleFrom="md" wrap="nowrap">
            {items.map((item) => (
              <NavLink key={item.label} to={item.to} end className={classes.link}>
                {item.label}
              </NavLink>
            ))}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <NavAvatar path={user?.profileImageUrl ?? null} />
            <Group gap="xs" visibleFrom="md" wrap="nowrap">
              {authButtons(false)}
            </Group>
            <Burger
              ref={burgerRef}
              opened={opened}
              onClick={toggle}
              hiddenFrom="md"
              aria-label="Toggle navigation menu"
              aria-expanded={opened}
            />
          </Group>
        </Group>
      </Container>
      <LazyDrawer
        opened={opened}
        onClose={closeToBurger}
        title="Menu"
        hiddenFrom="md"
        position="right"
        size="xs"
      >
        <Stack component="nav" aria-label="Mobile" gap={4}>
          {items.map((item) => (
            <UnstyledButton
              key={item.label}
              component={NavLink}
              to={item.to}
              end
              onClick={close}
              className={classes.mobileLink}
            >
              {item.label}
            </UnstyledButton>
          ))}
          <Stack gap="xs" mt="md">
            {authButtons(true)}
          </Stack>
        </Stack>
      </LazyDrawer>
    </Box>
  );
}
