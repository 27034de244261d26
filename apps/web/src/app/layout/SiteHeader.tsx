// The navbar: links by session and onboarding state, the user's name and role badge,
// Logout; below the breakpoint everything moves into a drawer behind a burger button.
import {
  Box,
  Burger,
  Button,
  Container,
  Divider,
  Drawer,
  Group,
  NavLink,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { isAdminRole } from '@ownvoice/shared';
import { IconLock, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../../components/Logo';
import { RoleBadge } from '../../components/RoleBadge';
import { useDialogFocus } from '../../lib/dialog-focus';
import { PATHS } from '../../lib/paths';
import { useSession } from '../../lib/session/session-context';
import { type NavItem, navItems } from './nav-items';

export const HEADER_HEIGHT = 64;

function DesktopLink({ item }: { item: NavItem }) {
  if (item.lockedReason) {
    return (
      <Tooltip label={item.lockedReason} withArrow>
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          fz="sm"
          fw={500}
          data-disabled
          aria-disabled="true"
          onClick={(event) => event.preventDefault()}
          styles={{
            root: { backgroundColor: 'transparent', color: 'var(--mantine-color-gray-5)', cursor: 'not-allowed' },
          }}
        >
          {item.label}
        </Button>
      </Tooltip>
    );
  }
  return (
    <Button
      component={Link}
      to={item.to}
      variant={item.active ? 'light' : 'subtle'}
      color={item.active ? 'violet' : 'dark'}
      size="compact-sm"
      fz="sm"
      fw={item.active ? 650 : 500}
      aria-current={item.active ? 'page' : undefined}
    >
      {item.label}
    </Button>
  );
}

function MobileLink({ item }: { item: NavItem }) {
  if (item.lockedReason) {
    return (
      <NavLink
        label={item.label}
        description={item.lockedReason}
        disabled
        leftSection={<IconLock size={16} aria-hidden="true" />}
      />
    );
  }
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      active={item.active}
      aria-current={item.active ? 'page' : undefined}
      fw={item.active ? 650 : 500}
    />
  );
}

export function SiteHeader() {
  const { status, user, logout } = useSession();
  const location = useLocation();
  const [drawerOpened, drawer] = useDisclosure(false);
  // While a stored session loads, show no links rather than flash the signed-out ones.
  const items = status === 'loading' ? [] : navItems(user, location.pathname, location.search);
  // The signed-in bar holds twice as many links, so it needs a wider screen before it fits.
  const breakpoint = user ? 'lg' : 'sm';

  const drawerFocus = useDialogFocus(drawerOpened);
  const closeDrawer = drawer.close;
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every navigation is the point
  useEffect(() => closeDrawer(), [location.pathname, location.search, closeDrawer]);

  return (
    <Box
      component="header"
      h={HEADER_HEIGHT}
      bg="var(--mantine-color-body)"
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 100,
        borderBottom: '1px solid var(--mantine-color-gray-2)',
        backdropFilter: 'saturate(180%) blur(8px)',
      }}
    >
      <Container fluid px={{ base: 'md', xl: 32 }} h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap" gap="md">
          <UnstyledButton component={Link} to={user ? PATHS.dashboard : PATHS.home} aria-label="OwnVoice home">
            <Logo />
          </UnstyledButton>

          <Group component="nav" aria-label="Main" gap={2} wrap="nowrap" visibleFrom={breakpoint}>
            {items.map((item) => (
              <DesktopLink key={item.label} item={item} />
            ))}
          </Group>

          {user && (
            <Group gap="sm" wrap="nowrap" visibleFrom={breakpoint} style={{ minWidth: 0 }}>
              <Group gap={6} wrap="nowrap" data-testid="navbar-user" style={{ minWidth: 0 }}>
                <IconUserCircle
                  size={20}
                  color="var(--mantine-color-gray-6)"
                  aria-hidden="true"
                  style={{ flexShrink: 0 }}
                />
                <Text fw={600} fz="sm" maw={160} truncate="end" title={user.username} style={{ minWidth: 0 }}>
                  {user.username}
                </Text>
                {isAdminRole(user.role) && (
                  <RoleBadge role={user.role} size="sm" style={{ flexShrink: 0, overflow: 'visible' }} />
                )}
              </Group>
              <Button
                variant="default"
                size="compact-sm"
                fz="sm"
                leftSection={<IconLogout size={16} />}
                onClick={logout}
                style={{ flexShrink: 0 }}
              >
                Logout
              </Button>
            </Group>
          )}

          <Burger
            hiddenFrom={breakpoint}
            opened={drawerOpened}
            onClick={drawer.toggle}
            aria-label={drawerOpened ? 'Close menu' : 'Open menu'}
            size="sm"
          />
        </Group>
      </Container>

      <Drawer
        opened={drawerOpened}
        onClose={drawer.close}
        hiddenFrom={breakpoint}
        position="right"
        size="min(320px, 85vw)"
        title={<Logo size={28} />}
        zIndex={300}
        closeButtonProps={{ 'aria-label': 'Close navigation' }}
        {...drawerFocus}
        returnFocus={false}
      >
        <Stack gap="xs">
          {user && (
            <>
              <Group gap={8} px="sm" py={4} wrap="nowrap" data-testid="drawer-user">
                <IconUserCircle size={22} color="var(--mantine-color-gray-6)" aria-hidden="true" />
                <Text fw={650} truncate="end">
                  {user.username}
                </Text>
                {isAdminRole(user.role) && <RoleBadge role={user.role} size="sm" />}
              </Group>
              <Divider />
            </>
          )}
          <Box component="nav" aria-label="Main">
            {items.map((item) => (
              <MobileLink key={item.label} item={item} />
            ))}
          </Box>
          {user && (
            <>
              <Divider />
              <Button variant="default" leftSection={<IconLogout size={16} />} onClick={logout} fullWidth>
                Logout
              </Button>
            </>
          )}
        </Stack>
      </Drawer>
    </Box>
  );
}
