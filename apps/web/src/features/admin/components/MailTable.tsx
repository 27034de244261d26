// The newest e-mail messages: to whom, what, whether it went, how many attempts, when, the last
// error; Retry for a failed one; and, on a server without a mail server, each message's text in a
// row that opens beneath it (fetched on opening, its links' keys masked: MailText).
import { Badge, Button, Group, Table, VisuallyHidden } from '@mantine/core';
import type { AdminMailMessage } from '@ownvoice/shared';
import { Fragment, useState } from 'react';
import { TableScrollRegion } from '../../../components/TableScrollRegion';
import { mailRow } from '../mail-view';
import { MailText } from './MailText';

export interface MailTableProps {
  messages: AdminMailMessage[];
  /** The messages' text can be opened (an outbox server). */
  outbox: boolean;
  onRetry: (id: string) => void;
  /** The message being sent again, if any. */
  retryingId?: string | undefined;
}

export function MailTable({ messages, outbox, onRetry, retryingId }: MailTableProps) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columns = 7;
  return (
    <TableScrollRegion label="E-mail messages" minWidth={760}>
      <Table striped verticalSpacing="xs" fz="sm" data-testid="admin-mail-table">
        <Table.Caption>
          {messages.length ? `The newest ${messages.length} messages, newest first.` : 'No messages yet.'}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>To</Table.Th>
            <Table.Th>Subject</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Attempts</Table.Th>
            <Table.Th>Time</Table.Th>
            <Table.Th>Error</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {messages.map((message) => {
            const row = mailRow(message);
            const textId = `admin-mail-text-${row.id}`;
            const expanded = open.has(row.id);
            return (
              <Fragment key={row.id}>
                <Table.Tr data-testid="admin-mail-row">
                  <Table.Td style={{ wordBreak: 'break-all' }}>{row.to}</Table.Td>
                  <Table.Td>{row.subject}</Table.Td>
                  {/* Wide enough for "Queued": a badge shrinks to an ellipsis in a narrow column. */}
                  <Table.Td style={{ minWidth: 96 }}>
                    <Badge variant="light" color={row.status.color}>
                      {row.status.label}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{row.attempts}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.time}</Table.Td>
                  <Table.Td>{row.error}</Table.Td>
                  <Table.Td ta="right">
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {outbox && row.readable && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          aria-expanded={expanded}
                          aria-controls={textId}
                          aria-label={`${expanded ? 'Hide' : 'Show'} the text of "${row.subject}" to ${row.to}`}
                          onClick={() => toggle(row.id)}
                        >
                          {expanded ? 'Hide text' : 'Text'}
                        </Button>
                      )}
                      {row.canRetry && (
                        <Button
                          size="compact-sm"
                          variant="default"
                          loading={retryingId === row.id}
                          disabled={retryingId !== undefined && retryingId !== row.id}
                          aria-label={`Retry "${row.subject}" to ${row.to}`}
                          onClick={() => onRetry(row.id)}
                        >
                          Retry
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
                {outbox && row.readable && (
                  <Table.Tr id={textId} hidden={!expanded} data-testid="admin-mail-text">
                    {/* Mounted only when opened: asking for the text is what the server records. */}
                    <Table.Td colSpan={columns}>{expanded && <MailText id={row.id} />}</Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </TableScrollRegion>
  );
}
