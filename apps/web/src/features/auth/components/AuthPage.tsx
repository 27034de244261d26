// /auth: Create account and Login tabs, chosen by ?tab=, default register.
import { Box, Container, Paper, SimpleGrid, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../components/Page';
import type { AuthTab } from '../../../lib/paths';
import { useBetaCapRedirect } from '../hooks/use-beta-cap-redirect';
import { AuthShowcase } from './AuthShowcase';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

export function AuthPage() {
  const [params, setParams] = useSearchParams();
  const tab: AuthTab = params.get('tab') === 'login' ? 'login' : 'register';
  useBetaCapRedirect(tab === 'register');
  useDocumentTitle(tab === 'login' ? 'Log in' : 'Create account');

  const selectTab = (value: string | null) => {
    if (value !== 'login' && value !== 'register') return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <Container size="lg" py={{ base: 'xl', sm: 56 }}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={40}>
        <Box visibleFrom="md">
          <AuthShowcase />
        </Box>
        <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 36 }} maw={480} w="100%" mx="auto">
          <Title order={1} fz={26} mb={4}>
            {tab === 'login' ? 'Welcome back' : 'Create your account'}
          </Title>
          <Text c="dimmed" mb="lg">
            {tab === 'login' ? 'Log in to keep writing in your own voice.' : 'Start training your own writing Voice.'}
          </Text>
          <Tabs value={tab} onChange={selectTab} keepMounted={false}>
            <Tabs.List grow mb="lg">
              <Tabs.Tab value="register">Create account</Tabs.Tab>
              <Tabs.Tab value="login">Login</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="register">
              <RegisterForm />
            </Tabs.Panel>
            <Tabs.Panel value="login">
              <LoginForm />
            </Tabs.Panel>
          </Tabs>
        </Paper>
      </SimpleGrid>
    </Container>
  );
}
