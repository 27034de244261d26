// The one Mantine theme: a violet brand on neutral greys, system fonts (nothing to download),
// rounded but not bubbly corners, and the defaults every card, button and input shares.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  type CSSVariablesResolver,
  createTheme,
  Paper,
  PasswordInput,
  TextInput,
  Title,
} from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: {
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: '750',
    sizes: {
      h1: { fontSize: '2.5rem', lineHeight: '1.15' },
      h2: { fontSize: '1.75rem', lineHeight: '1.25' },
      h3: { fontSize: '1.25rem', lineHeight: '1.35' },
    },
  },
  other: {
    headerHeight: 64,
  },
  components: {
    Button: Button.extend({ defaultProps: { radius: 'md' } }),
    Card: Card.extend({ defaultProps: { withBorder: true, radius: 'lg', padding: 'xl', shadow: 'xs' } }),
    Paper: Paper.extend({ defaultProps: { radius: 'lg' } }),
    Container: Container.extend({ defaultProps: { size: 'lg' } }),
    TextInput: TextInput.extend({ defaultProps: { size: 'md' } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { size: 'md' } }),
    Alert: Alert.extend({ defaultProps: { radius: 'md', variant: 'light' } }),
    Badge: Badge.extend({ defaultProps: { radius: 'sm', variant: 'light' } }),
    Anchor: Anchor.extend({ defaultProps: { underline: 'hover' } }),
    Title: Title.extend({ defaultProps: { textWrap: 'balance' } }),
  },
});

/**
 * Mantine's dimmed grey (gray 6, 3.3:1 on white) fails the 4.5:1 contrast small text needs; the
 * dimmed text, descriptions and footer links read in gray 7 instead (5.7:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
