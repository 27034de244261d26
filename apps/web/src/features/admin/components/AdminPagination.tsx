// Pagination with at most ADMIN_PAGE_BUTTONS page buttons (see page-buttons.ts), plus first,
// previous, next and last. Hidden when everything fits on one page.
import { Pagination } from '@mantine/core';
import { pageButtons } from '../page-buttons';

export interface AdminPaginationProps {
  page: number;
  pages: number;
  onChange: (page: number) => void;
  /** What is paged, for screen readers: "Users pages". */
  label: string;
}

export function AdminPagination({ page, pages, onChange, label }: AdminPaginationProps) {
  if (pages <= 1) return null;
  return (
    <Pagination.Root total={pages} value={page} onChange={onChange} size="sm">
      <nav aria-label={label} data-testid="admin-pagination" style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }}>
        <Pagination.First aria-label="First page" />
        <Pagination.Previous aria-label="Previous page" />
        {pageButtons(page, pages).map((n) => (
          <Pagination.Control
            key={n}
            active={n === page}
            onClick={() => onChange(n)}
            aria-label={`Page ${n}`}
            aria-current={n === page ? 'page' : undefined}
          >
            {n}
          </Pagination.Control>
        ))}
        <Pagination.Next aria-label="Next page" />
        <Pagination.Last aria-label="Last page" />
      </nav>
    </Pagination.Root>
  );
}
